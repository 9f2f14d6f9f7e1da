database = object()
