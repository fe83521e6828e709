"""SQLite's full-text index of search entries (FTS5), kept current by triggers.

PostgreSQL has its weighted ``vector`` column and GIN indexes (0001); this gives SQLite the
same kind of search: words matched by their start ("HBM3" finds "HBM3e") after English
stemming (Porter's, as PostgreSQL's ``english`` configuration does). The index holds no text of
its own (``content=``): it reads the entries' rows, and the triggers keep it in step with every
insert, update and delete, cascades included. A migration that rebuilds the table on SQLite
(Django's way to alter a column there) drops the triggers: create them again after it.
"""

from django.db import migrations

TABLE = "discovery_searchentry"
FTS = "discovery_searchentry_fts"

CREATE = [
    f"CREATE VIRTUAL TABLE {FTS} USING fts5(title, keywords, body, content='{TABLE}', content_rowid='id', "
    "tokenize='porter unicode61 remove_diacritics 2')",
    f"CREATE TRIGGER {FTS}_insert AFTER INSERT ON {TABLE} BEGIN "
    f"INSERT INTO {FTS}(rowid, title, keywords, body) VALUES (new.id, new.title, new.keywords, new.body); END",
    f"CREATE TRIGGER {FTS}_delete AFTER DELETE ON {TABLE} BEGIN "
    f"INSERT INTO {FTS}({FTS}, rowid, title, keywords, body) VALUES ('delete', old.id, old.title, old.keywords, old.body); END",
    f"CREATE TRIGGER {FTS}_update AFTER UPDATE ON {TABLE} BEGIN "
    f"INSERT INTO {FTS}({FTS}, rowid, title, keywords, body) VALUES ('delete', old.id, old.title, old.keywords, old.body); "
    f"INSERT INTO {FTS}(rowid, title, keywords, body) VALUES (new.id, new.title, new.keywords, new.body); END",
    f"INSERT INTO {FTS}({FTS}) VALUES ('rebuild')",  # the entries indexed before this migration
]
DROP = [f"DROP TRIGGER {FTS}_update", f"DROP TRIGGER {FTS}_delete", f"DROP TRIGGER {FTS}_insert", f"DROP TABLE {FTS}"]


def run_on_sqlite(statements):
    def run(apps, schema_editor):
        if schema_editor.connection.vendor == "sqlite":
            for statement in statements:
                schema_editor.execute(statement)

    return run


class Migration(migrations.Migration):
    dependencies = [("discovery", "0001_search_entries")]

    operations = [migrations.RunPython(run_on_sqlite(CREATE), run_on_sqlite(DROP), elidable=False)]
