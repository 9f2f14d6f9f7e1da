"""Language choices: ``saq`` and ``rq`` here are language codes (Samburu, a test code), not the
job frameworks of that name; nothing in this module can register a job."""

LANGUAGES = [
    ("sah", "Sakha"),
    ("saq", "Samburu"),
    ("sbp", "Sangu"),
]


def label(code):
    # saq, as a comment, is no import either
    return dict(LANGUAGES).get(code, "saq")
