"""A test that registers a throwaway job on the real app."""

from shop.tasks import app


class TestRetries:
    def test_retry_policy(self):
        @app.task(max_retries=2)
        def flaky():
            raise RuntimeError

        assert flaky.max_retries == 2
