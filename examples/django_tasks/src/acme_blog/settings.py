"""Django settings of the blog (the parts the background work depends on)."""

INSTALLED_APPS = [
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "acme_blog.newsletter",
    "acme_blog.search",
]

TASKS = {
    "default": {
        "BACKEND": "django.tasks.backends.immediate.ImmediateBackend",
        "QUEUES": ["default", "newsletter", "search"],
    },
}
