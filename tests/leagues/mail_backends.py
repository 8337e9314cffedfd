"""An email backend for tests whose SMTP server refuses one address."""

from __future__ import annotations

import smtplib

from django.core.mail.backends.locmem import EmailBackend

REFUSED = "refused@example.org"


class RefusingBackend(EmailBackend):
    """Django's test outbox, except that mail to `REFUSED` fails as a refused recipient."""

    def send_messages(self, messages):
        for message in messages:
            if REFUSED in message.to:
                raise smtplib.SMTPRecipientsRefused({REFUSED: (550, b"No such mailbox")})
        return super().send_messages(messages)
