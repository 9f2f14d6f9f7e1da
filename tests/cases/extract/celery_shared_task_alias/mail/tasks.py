"""Digest email."""

from celery import shared_task as st


@st(queue="digest")
def send_weekly_digest(user_id):
    """Send the weekly activity digest."""


@st
def send_monthly_digest(user_id):
    """Send the monthly activity digest."""
