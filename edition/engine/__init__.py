"""The engine: pure stages from witness files to the export, independent of any site generator.

load → normalise (tokens) → segment → assign (episodes) → align (rows) → notes → export;
``pipeline.build`` runs them with the data of ``resources.load_resources``.
"""
