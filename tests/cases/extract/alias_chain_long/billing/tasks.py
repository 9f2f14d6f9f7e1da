"""A long chain of plain aliases: each step is a name, followed in a loop."""

from celery import Celery

app = Celery("billing")
t0 = app.task(queue="billing", max_retries=3)
t1 = t0
t2 = t1
t3 = t2
t4 = t3
t5 = t4
t6 = t5
t7 = t6
t8 = t7
t9 = t8
t10 = t9
t11 = t10
t12 = t11
t13 = t12
t14 = t13
t15 = t14
t16 = t15
t17 = t16
t18 = t17
t19 = t18
t20 = t19
t21 = t20
t22 = t21
t23 = t22
t24 = t23
t25 = t24
t26 = t25
t27 = t26
t28 = t27
t29 = t28
t30 = t29
t31 = t30
t32 = t31
t33 = t32
t34 = t33
t35 = t34
t36 = t35
t37 = t36
t38 = t37
t39 = t38
t40 = t39


@t40
def wire_funds():
    """Move the money."""
