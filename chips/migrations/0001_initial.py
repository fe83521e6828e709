"""Chips and their numbers move from vendors to chips, state only: the tables, their rows and
their content types are kept (chips 0002 points the content types at chips, gives the roles their
permissions again and renames the tables)."""

import django.db.models.deletion
import django.db.models.functions.text
import django.db.models.lookups
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ('claims', '0002_table_name'),
        ('vendors', '0022_chips_to_their_app'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='Availability',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('verified_on', models.DateField(blank=True, help_text='When an editor last checked this against its sources.', null=True)),
                        ('verified_at', models.DateTimeField(blank=True, editable=False, help_text="The moment it was verified, compared with when a source's problem was found.", null=True, verbose_name='verified at')),
                        ('chip', models.CharField(help_text='The chip (product generation) it dates, e.g. “Trainium3”.', max_length=80)),
                        ('stage', models.CharField(choices=[('announced', 'Announced'), ('preview', 'In preview'), ('ga', 'Generally available')], max_length=10)),
                        ('month', models.DateField(help_text='The month it reached the stage, e.g. 2025-10 (no day is kept).')),
                        ('vendor_stated', models.BooleanField(default=False, help_text='Tick when the date comes from the vendor itself.')),
                        ('position', models.PositiveIntegerField(default=0, help_text='Order within the page.')),
                        ('vendor', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='availability', to='vendors.vendor')),
                        ('verified_by', models.ForeignKey(blank=True, editable=False, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        'db_table': 'vendors_availability',
                        'verbose_name': 'availability date',
                        'ordering': ['vendor', 'position', 'pk'],
                    },
                ),
                migrations.CreateModel(
                    name='StaleAvailability',
                    fields=[
                    ],
                    options={
                        'verbose_name': 'stale availability date',
                        'verbose_name_plural': 'staleness queue: availability dates',
                        'proxy': True,
                        'default_permissions': (),
                        'indexes': [],
                        'constraints': [],
                    },
                    bases=('chips.availability',),
                ),
                migrations.CreateModel(
                    name='AvailabilityCitation',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('quote', models.TextField(blank=True, help_text="The source's own words that bear on the claim, at most 500 characters. Readers see it in the Sources list.", max_length=500)),
                        ('support', models.CharField(choices=[('full', 'Full support'), ('partial', 'Partial support'), ('contradicts', 'Contradicts')], default='full', help_text='Whether the source supports the claim fully, only partly, or contradicts it.', max_length=11)),
                        ('cited', models.ForeignKey(db_column='availability_id', on_delete=django.db.models.deletion.CASCADE, to='chips.availability')),
                        ('source', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='%(class)s_set', to='claims.source')),
                    ],
                    options={
                        'db_table': 'vendors_availabilitycitation',
                        'verbose_name': 'availability citation',
                        'ordering': ['pk'],
                        'abstract': False,
                    },
                ),
                migrations.AddField(
                    model_name='availability',
                    name='sources',
                    field=models.ManyToManyField(blank=True, related_name='availability', through='chips.AvailabilityCitation', to='claims.source'),
                ),
                migrations.CreateModel(
                    name='Spec',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('verified_on', models.DateField(blank=True, help_text='When an editor last checked this against its sources.', null=True)),
                        ('verified_at', models.DateTimeField(blank=True, editable=False, help_text="The moment it was verified, compared with when a source's problem was found.", null=True, verbose_name='verified at')),
                        ('chip', models.CharField(help_text='The chip (product generation) it is a number of, e.g. “Trainium3”.', max_length=80)),
                        ('kind', models.CharField(choices=[('memory', 'Memory capacity'), ('bandwidth', 'Memory bandwidth'), ('sram', 'On-chip SRAM'), ('sram_bandwidth', 'On-chip SRAM bandwidth'), ('compute', 'Compute'), ('power', 'Power'), ('process', 'Process'), ('scale', 'Scale')], max_length=16)),
                        ('quantity', models.DecimalField(decimal_places=6, help_text='The number as the source gives it, e.g. 144 or 7.37.', max_digits=16)),
                        ('unit', models.CharField(choices=[('GB', 'GB'), ('GiB', 'GiB'), ('MB', 'MB'), ('MiB', 'MiB'), ('TB', 'TB'), ('TB/s', 'TB/s'), ('GB/s', 'GB/s'), ('PFLOPS', 'PFLOPS'), ('TFLOPS', 'TFLOPS'), ('W', 'W'), ('kW', 'kW'), ('nm', 'nm'), ('chips', 'chips')], help_text='The unit as the source gives it.', max_length=8)),
                        ('scope', models.CharField(choices=[('chip', 'Per chip'), ('system', 'Per system'), ('pod', 'Per pod')], default='chip', max_length=6)),
                        ('precision', models.CharField(blank=True, choices=[('FP4', 'FP4'), ('FP6', 'FP6'), ('FP6/FP4', 'FP6/FP4'), ('FP8', 'FP8'), ('MXFP8', 'MXFP8'), ('Block FP8', 'Block FP8'), ('INT8', 'INT8'), ('FP16', 'FP16'), ('BF16', 'BF16'), ('TF32', 'TF32'), ('FP32', 'FP32'), ('FP64', 'FP64')], help_text='For compute: the number format it is counted in.', max_length=12)),
                        ('sparse', models.BooleanField(default=False, help_text='For compute: counted with sparsity.')),
                        ('vendor_stated', models.BooleanField(default=False, help_text='Tick when the figure comes from the vendor itself.')),
                        ('position', models.PositiveIntegerField(default=0, help_text='Order within the page.')),
                        ('vendor', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='specs', to='vendors.vendor')),
                        ('verified_by', models.ForeignKey(blank=True, editable=False, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        'db_table': 'vendors_spec',
                        'verbose_name': 'chip spec',
                        'ordering': ['vendor', 'position', 'pk'],
                    },
                ),
                migrations.CreateModel(
                    name='StaleSpec',
                    fields=[
                    ],
                    options={
                        'verbose_name': 'stale chip spec',
                        'verbose_name_plural': 'staleness queue: chip specs',
                        'proxy': True,
                        'default_permissions': (),
                        'indexes': [],
                        'constraints': [],
                    },
                    bases=('chips.spec',),
                ),
                migrations.CreateModel(
                    name='SpecCitation',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('quote', models.TextField(blank=True, help_text="The source's own words that bear on the claim, at most 500 characters. Readers see it in the Sources list.", max_length=500)),
                        ('support', models.CharField(choices=[('full', 'Full support'), ('partial', 'Partial support'), ('contradicts', 'Contradicts')], default='full', help_text='Whether the source supports the claim fully, only partly, or contradicts it.', max_length=11)),
                        ('cited', models.ForeignKey(db_column='spec_id', on_delete=django.db.models.deletion.CASCADE, to='chips.spec')),
                        ('source', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='%(class)s_set', to='claims.source')),
                    ],
                    options={
                        'db_table': 'vendors_speccitation',
                        'verbose_name': 'spec citation',
                        'ordering': ['pk'],
                        'abstract': False,
                    },
                ),
                migrations.AddField(
                    model_name='spec',
                    name='sources',
                    field=models.ManyToManyField(blank=True, related_name='specs', through='chips.SpecCitation', to='claims.source'),
                ),
                migrations.CreateModel(
                    name='VersionChip',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('slug', models.SlugField(max_length=100)),
                        ('name', models.CharField(max_length=80)),
                        ('position', models.PositiveIntegerField()),
                        ('stage', models.CharField(blank=True, default='', help_text='The furthest stage it reached (documents.Chip.stage).', max_length=10)),
                        ('version', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='chips', to='vendors.vendorversion')),
                    ],
                    options={
                        'db_table': 'vendors_versionchip',
                        'ordering': ['version', 'position'],
                    },
                ),
                migrations.CreateModel(
                    name='VersionSpec',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('kind', models.CharField(choices=[('memory', 'Memory capacity'), ('bandwidth', 'Memory bandwidth'), ('sram', 'On-chip SRAM'), ('sram_bandwidth', 'On-chip SRAM bandwidth'), ('compute', 'Compute'), ('power', 'Power'), ('process', 'Process'), ('scale', 'Scale')], max_length=16)),
                        ('scope', models.CharField(choices=[('chip', 'Per chip'), ('system', 'Per system'), ('pod', 'Per pod')], max_length=6)),
                        ('precision', models.CharField(blank=True, max_length=12)),
                        ('sparse', models.BooleanField(default=False)),
                        ('value', models.FloatField()),
                        ('chip', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='values', to='chips.versionchip')),
                    ],
                    options={'db_table': 'vendors_versionspec'},
                ),
                migrations.AddConstraint(
                    model_name='availabilitycitation',
                    constraint=models.UniqueConstraint(fields=('cited', 'source'), name='unique_availability_citation'),
                ),
                migrations.AddConstraint(
                    model_name='availabilitycitation',
                    constraint=models.CheckConstraint(condition=models.Q(('support__in', ['full', 'partial', 'contradicts'])), name='availability_citation_support_known', violation_error_message='Support is full, partial or contradicts.'),
                ),
                migrations.AddConstraint(
                    model_name='availabilitycitation',
                    constraint=models.CheckConstraint(condition=django.db.models.lookups.LessThanOrEqual(django.db.models.functions.text.Length('quote'), 500), name='availability_citation_quote_fits', violation_error_message='A quote is at most 500 characters.'),
                ),
                migrations.AddConstraint(
                    model_name='availability',
                    constraint=models.CheckConstraint(condition=models.Q(('month__day', 1)), name='availability_month_only', violation_error_message='An availability date is a month: its day is the first.'),
                ),
                migrations.AddConstraint(
                    model_name='speccitation',
                    constraint=models.UniqueConstraint(fields=('cited', 'source'), name='unique_spec_citation'),
                ),
                migrations.AddConstraint(
                    model_name='speccitation',
                    constraint=models.CheckConstraint(condition=models.Q(('support__in', ['full', 'partial', 'contradicts'])), name='spec_citation_support_known', violation_error_message='Support is full, partial or contradicts.'),
                ),
                migrations.AddConstraint(
                    model_name='speccitation',
                    constraint=models.CheckConstraint(condition=django.db.models.lookups.LessThanOrEqual(django.db.models.functions.text.Length('quote'), 500), name='spec_citation_quote_fits', violation_error_message='A quote is at most 500 characters.'),
                ),
                migrations.AddConstraint(
                    model_name='spec',
                    constraint=models.CheckConstraint(condition=models.Q(('kind', 'compute'), models.Q(('precision', ''), ('sparse', False)), _connector='OR'), name='spec_precision_only_for_compute', violation_error_message='Only a compute figure has a precision or sparsity.'),
                ),
                migrations.AddConstraint(
                    model_name='spec',
                    constraint=models.CheckConstraint(condition=models.Q(('quantity__gt', 0)), name='spec_quantity_positive', violation_error_message="A spec's number is more than zero."),
                ),
                migrations.AddIndex(
                    model_name='versionchip',
                    index=models.Index(fields=['slug', 'version'], name='version_chip_slug'),
                ),
                migrations.AddConstraint(
                    model_name='versionchip',
                    constraint=models.UniqueConstraint(fields=('version', 'slug'), name='version_chip_once'),
                ),
                migrations.AddIndex(
                    model_name='versionspec',
                    index=models.Index(fields=['kind', 'scope', 'value'], name='version_spec_value'),
                ),
            ],
            database_operations=[],
        ),
    ]
