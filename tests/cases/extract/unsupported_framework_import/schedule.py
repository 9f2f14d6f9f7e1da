"""The project's own module named schedule (shift rotas), not the schedule library."""

ROTA = ("alice", "bob")
