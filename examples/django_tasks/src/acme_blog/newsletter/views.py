"""Views that start background work."""

from django.http import HttpResponse

from acme_blog.newsletter.tasks import confirm_subscription


def subscribe(request):
    confirm_subscription.enqueue(request.POST["email"])
    return HttpResponse(status=202)
