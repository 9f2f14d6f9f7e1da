"""Thumbnail rendering."""


def render_thumbnail(asset_id):
    """Render the thumbnail of one uploaded asset."""
