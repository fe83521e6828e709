"""Migration operations for what only PostgreSQL has."""

from django.db import migrations


class AddIndexOnPostgres(migrations.AddIndex):
    """An index only PostgreSQL can build (GIN): the model declares it on every database,
    and SQLite, which cannot build it, searches without it."""

    def database_forwards(self, app_label, schema_editor, from_state, to_state):
        if schema_editor.connection.vendor == "postgresql":
            super().database_forwards(app_label, schema_editor, from_state, to_state)

    def database_backwards(self, app_label, schema_editor, from_state, to_state):
        if schema_editor.connection.vendor == "postgresql":
            super().database_backwards(app_label, schema_editor, from_state, to_state)
