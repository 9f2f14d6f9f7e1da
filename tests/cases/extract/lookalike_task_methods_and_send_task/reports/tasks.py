"""Report jobs, and the services that enqueue them."""

from celery import Celery, shared_task

app = Celery("reports")


@shared_task(queue="reports")
def build_export(user_id):
    """Build a user's CSV export."""


class ExportService:
    """Service methods whose names end in ``task``: calls, never registrations."""

    def __init__(self, builder):
        self.builder = builder

    def create_export_task(self, user):
        return build_export.delay(user.id)

    def request(self, user):
        self.create_export_task(user)
        self.run_task(user)
        self.builder.get_task(user.id)

    @classmethod
    def later(cls, user):
        cls.save_and_schedule_task(user)

    def forward(self, entry):
        self.send_task(entry.task)
        app.send_task("reports.tasks.build_export", args=(entry.user_id,))
