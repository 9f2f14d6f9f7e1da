"""Search indexing."""


def index_document(document_id):
    """Index one document."""


def drop_document(document_id):
    """Remove one document from the index."""
