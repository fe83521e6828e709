"""Source moves from vendors to claims, the citation kernel: its state is declared here and
its table, rows and content type are kept as they are (vendors 0021 lets go of it and points
the content type at claims; claims 0002 renames the table)."""

import django.core.validators
from django.db import migrations, models


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("vendors", "0020_sram_bandwidth"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='Source',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('title', models.CharField(help_text="The document's own title or headline.", max_length=300)),
                        ('publisher', models.CharField(blank=True, help_text='Who published it, e.g. “AWS”.', max_length=200)),
                        ('url', models.URLField(help_text='http or https only. One source per URL.', max_length=1000, unique=True, validators=[django.core.validators.URLValidator(schemes=['http', 'https'])], verbose_name='URL')),
                        ('accessed_on', models.DateField(blank=True, help_text='When an editor last read it.', null=True, verbose_name='date accessed')),
                        ('notes', models.TextField(blank=True, help_text='For editors only; never shown to visitors.')),
                        ('archive_url', models.URLField(blank=True, help_text='A copy kept by an archive (e.g. https://web.archive.org/web/…), shown to readers beside the original in case the original moves or disappears.', max_length=1000, validators=[django.core.validators.URLValidator(schemes=['http', 'https'])], verbose_name='archived copy')),
                        ('checked_at', models.DateTimeField(blank=True, editable=False, null=True, verbose_name='last checked')),
                        ('check_status', models.PositiveSmallIntegerField(blank=True, editable=False, null=True, verbose_name='HTTP status')),
                        ('check_error', models.CharField(blank=True, editable=False, help_text='Why the page could not be read.', max_length=200, verbose_name='error')),
                        ('final_url', models.URLField(blank=True, editable=False, help_text='Where redirects led.', max_length=1000, verbose_name='final URL')),
                        ('fingerprint', models.CharField(blank=True, editable=False, help_text="SHA-256 of the page's text.", max_length=64)),
                        ('text_changed_since', models.DateField(blank=True, editable=False, help_text="The last check that saw the page's earlier text, when a later check found it changed.", null=True, verbose_name='text changed since')),
                        ('failures', models.PositiveSmallIntegerField(default=0, editable=False, verbose_name='failed checks in a row')),
                        ('problem', models.CharField(blank=True, editable=False, help_text='Why what cites this source needs checking again, e.g. “returned 404”.', max_length=200)),
                        ('problem_on', models.DateField(blank=True, editable=False, null=True, verbose_name='problem found on')),
                        ('problem_at', models.DateTimeField(blank=True, editable=False, help_text='Everything citing this source and verified before this moment is stale.', null=True, verbose_name='problem found at')),
                    ],
                    options={
                        'db_table': 'vendors_source',
                        'ordering': ['title', 'pk'],
                        'constraints': [models.CheckConstraint(condition=models.Q(('url__startswith', 'http://'), ('url__startswith', 'https://'), _connector='OR'), name='source_url_http_or_https'), models.CheckConstraint(condition=models.Q(('archive_url', ''), ('archive_url__startswith', 'http://'), ('archive_url__startswith', 'https://'), _connector='OR'), name='source_archive_url_http_or_https')],
                    },
                ),
            ],
            database_operations=[],
        ),
    ]
