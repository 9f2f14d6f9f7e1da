"""Acme's asset library: uploads, renditions and transcoding."""
