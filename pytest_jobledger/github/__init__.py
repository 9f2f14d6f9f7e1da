"""The GitHub Actions face: annotations, the Actions context, the job summary, the pytest plugin
that presents findings in a workflow, and the composite action's entry point.

- ``commands``: workflow commands (escaped) and annotations for findings;
- ``context``: the Actions environment, the files a pull request changed, step outputs;
- ``annotations`` and ``sarif``: ``jobledger check --format github`` and ``--format sarif``;
- ``summary``: the Markdown job summary within GitHub's byte limit, and ``runbook``: its rows of
  the jobs a pull request changed;
- ``plugin``: the ``jobledger_github`` pytest plugin (annotations, summary, SARIF, outputs);
- ``action``: what ``action.yml`` runs (``python -m pytest_jobledger.github.action``);
- ``install_key``: the action's private venv (run by path before the tool is installed): its key
  (what it was made from), where it lives, whether the one there is provably this action's to
  reuse, and the bundled pip wheel that fills a new one.
"""
