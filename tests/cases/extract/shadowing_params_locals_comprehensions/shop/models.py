class Job:
    objects = None
