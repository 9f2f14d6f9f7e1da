"""Jobs whose names, queues and docstrings are hostile on purpose."""

from celery import shared_task


@shared_task(name="pipe|tick`<script>alert(1)</script>", queue="q|<img src=x onerror=alert(1)>")
def charge(invoice_id):
    """# Not a heading
    [click me](javascript:alert(1)) and <img src=x onerror=alert(2)>
    ```
    | a | b |
    ---
    ~~~
    end of docstring"""


@shared_task(name="[x](javascript:alert(3))", queue="# queue", max_retries=2)
def linky(invoice_id):
    """Ends with backticks ``"""


@shared_task(name="ctl\x1b[31m\u202eevil\tid", queue="\n- list")
def control(invoice_id):
    """Control \x1b[2J and bidi \u202e characters.\x07"""
