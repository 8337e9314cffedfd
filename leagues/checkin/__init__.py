"""Check-in on arrival: members say they are at a night, from its page or the QR code on
the door, and the organiser seats the night from who checked in."""
