"""A thin client for the payment provider's HTTP API (no jobs are registered here)."""


class PaymentGateway:
    """Wraps the provider calls the billing jobs need."""

    def capture(self, invoice_id: str) -> None:
        raise NotImplementedError

    def void(self, authorization_id: str) -> None:
        raise NotImplementedError

    def refund(self, payment_id: str, amount_cents: int) -> None:
        raise NotImplementedError

    def reconcile(self, day: str) -> None:
        raise NotImplementedError
