"""A test module that imports jobs and calls them directly: it registers nothing (proved from
the jobs' own defs, without parsing this module)."""

from unittest import mock

from shop.tasks import format_task, send_receipt


def test_send_receipt():
    send_receipt(1)
    assert format_task(2) == "2"


def test_handed_on():
    with mock.patch("shop.tasks.send_receipt.delay") as delay:
        run(send_receipt)
        delay.assert_called_once()


def run(job):
    return job(3)
