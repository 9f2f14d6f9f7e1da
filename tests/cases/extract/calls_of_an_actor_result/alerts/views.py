"""Views that send the actor messages: calling a job is not registering one."""

from alerts.actors import notify


def signup(user_id):
    notify(user_id)
    notify.send(user_id)
    notify.send_with_options(args=(user_id,), delay=1000)


def password_reset(user_id):
    from alerts.actors import notify as tell

    tell(user_id)


def nightly(user_ids):
    from alerts import actors

    for user_id in user_ids:
        actors.notify(user_id)
