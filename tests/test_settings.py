"""Production settings refuse an insecure configuration and pass the deploy checks."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GOOD_KEY = "k" * 20 + "-production-secret-value-that-is-long-enough-0123"


def run_manage(*args: str, **env: str) -> subprocess.CompletedProcess:
    full_env = {k: v for k, v in os.environ.items() if k not in {"SECRET_KEY", "DEBUG"}}
    full_env["DJANGO_SETTINGS_MODULE"] = "config.settings"  # the site's, not the suite's
    full_env.update(env)
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=full_env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_production_refuses_to_start_on_the_development_secret_key():
    result = run_manage("check", DEBUG="false", ALLOWED_HOSTS="fairway.example")
    assert result.returncode != 0
    assert "Set SECRET_KEY" in result.stderr


def test_production_refuses_a_short_secret_key():
    result = run_manage("check", DEBUG="false", ALLOWED_HOSTS="x.example", SECRET_KEY="short")
    assert result.returncode != 0
    assert "Set SECRET_KEY" in result.stderr


def test_production_refuses_to_start_without_allowed_hosts():
    result = run_manage("check", DEBUG="false", SECRET_KEY=GOOD_KEY, ALLOWED_HOSTS="")
    assert result.returncode != 0
    assert "ALLOWED_HOSTS" in result.stderr


def test_debug_must_be_a_clear_true_or_false():
    result = run_manage("check", DEBUG="maybe")
    assert result.returncode != 0
    assert "DEBUG must be true or false" in result.stderr


def test_the_task_backend_must_be_one_the_site_knows():
    result = run_manage("check", TASKS_BACKEND="celery")
    assert result.returncode != 0
    assert "TASKS_BACKEND must be one of database, immediate" in result.stderr


def test_deploy_check_reports_nothing_under_production_settings():
    result = run_manage(
        "check",
        "--deploy",
        "--fail-level",
        "DEBUG",
        DEBUG="false",
        SECRET_KEY=GOOD_KEY,
        ALLOWED_HOSTS="fairway.example",
    )
    assert result.returncode == 0, result.stderr
    assert "no issues" in result.stdout
