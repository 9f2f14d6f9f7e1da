from celery import shared_task


@shared_task(queue="orders")
def reserve_stock(order_id):
    """Reserves the stock of an order."""
