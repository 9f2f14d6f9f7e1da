"""An actor built from a callable object: one registration the parser cannot follow."""

import dramatiq


class Notifier:
    def __call__(self, user_id):
        """Tell a user something happened."""


notify = dramatiq.actor(Notifier(), queue_name="alerts")
