"""An outbox with a method named enqueue: it is not an RQ queue, so nothing here is a job."""

import collections


class Outbox:
    """Messages waiting for the next SMTP flush."""

    def __init__(self):
        self.pending = collections.deque()

    def enqueue(self, message):
        self.pending.append(message)


outbox = Outbox()


def welcome(address):
    """Build the welcome message."""
    return f"Welcome, {address}"


def sign_up(address):
    outbox.enqueue(welcome, address)
    collections.deque().append(welcome)
