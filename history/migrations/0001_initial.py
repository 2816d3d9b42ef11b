"""The configuration history, taken over from `audit` (its migration 0004), whose tables it keeps.

The models enter this app's state only: their tables, rows and append-only
guards are there already. The triggers that fill them are named after their
app, so the old ones are dropped and the new ones (the same SQL) created, in
this one transaction: no change goes unrecorded in between.
"""

import importlib

import django.contrib.auth.models
import django.contrib.auth.validators
import django.db.models.deletion
import django.utils.timezone
import pghistory.utils
import pgtrigger.compiler
import pgtrigger.migrations
from django.conf import settings
from django.db import migrations, models

# TableLimit.kind's choices when the history moved (they are not stored in the database).
WAGER_KINDS = [
    ("primary", "primary"),
    ("T17", "T17"),
    ("T18", "T18"),
    ("T19", "T19"),
    ("T20", "T20"),
    ("T21", "T21"),
    ("TBJ", "TBJ"),
    ("LS", "LS"),
    ("RS", "RS"),
    ("insurance", "insurance"),
]


def _audit_triggers():
    """The triggers audit migration 0001 installed, as it compiled them."""
    initial = importlib.import_module("audit.migrations.0001_initial")
    return [
        op.trigger for op in initial.Migration.operations if isinstance(op, pgtrigger.migrations.AddTrigger)
    ]


DROP_AUDIT_TRIGGERS = "".join(
    f"DROP TRIGGER {trigger.sql.pgid} ON {trigger.sql.table}; DROP FUNCTION {trigger.sql.pgid}();\n"
    for trigger in _audit_triggers()
)
RESTORE_AUDIT_TRIGGERS = "".join(trigger.install_sql for trigger in _audit_triggers())


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("audit", "0004_history_moves_out"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("bonus_tie", "0003_paytable_proposal"),
        ("casino", "0007_round_opening"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="DealerHistory",
                    fields=[
                        ("pgh_id", models.AutoField(primary_key=True, serialize=False)),
                        ("pgh_created_at", models.DateTimeField(auto_now_add=True)),
                        ("pgh_label", models.TextField(help_text="The event label.")),
                        ("pgh_context", pghistory.utils.JSONField(null=True)),
                        ("pgh_context_id", models.UUIDField(null=True)),
                        ("id", models.BigIntegerField()),
                        ("badge", models.CharField(max_length=32)),
                        ("name", models.CharField(max_length=100)),
                        ("is_active", models.BooleanField(default=True)),
                    ],
                    options={
                        "db_table": "audit_dealerhistory",
                    },
                ),
                migrations.CreateModel(
                    name="UserProxy",
                    fields=[],
                    options={
                        "proxy": True,
                        "indexes": [],
                        "constraints": [],
                    },
                    bases=("auth.user",),
                    managers=[
                        ("objects", django.contrib.auth.models.UserManager()),
                    ],
                ),
                migrations.CreateModel(
                    name="TerminalProxy",
                    fields=[],
                    options={
                        "proxy": True,
                        "indexes": [],
                        "constraints": [],
                    },
                    bases=("casino.terminal",),
                ),
                migrations.CreateModel(
                    name="TableLimitProxy",
                    fields=[],
                    options={
                        "proxy": True,
                        "indexes": [],
                        "constraints": [],
                    },
                    bases=("casino.tablelimit",),
                ),
                migrations.CreateModel(
                    name="TableProxy",
                    fields=[],
                    options={
                        "proxy": True,
                        "indexes": [],
                        "constraints": [],
                    },
                    bases=("casino.table",),
                ),
                migrations.CreateModel(
                    name="StaffTokenProxy",
                    fields=[],
                    options={
                        "proxy": True,
                        "indexes": [],
                        "constraints": [],
                    },
                    bases=("casino.stafftoken",),
                ),
                migrations.CreateModel(
                    name="StaffProfileProxy",
                    fields=[],
                    options={
                        "proxy": True,
                        "indexes": [],
                        "constraints": [],
                    },
                    bases=("casino.staffprofile",),
                ),
                migrations.CreateModel(
                    name="PaytableVersionProxy",
                    fields=[],
                    options={
                        "proxy": True,
                        "indexes": [],
                        "constraints": [],
                    },
                    bases=("bonus_tie.paytableversion",),
                ),
                migrations.CreateModel(
                    name="DealerProxy",
                    fields=[],
                    options={
                        "proxy": True,
                        "indexes": [],
                        "constraints": [],
                    },
                    bases=("casino.dealer",),
                ),
                migrations.CreateModel(
                    name="PaytableVersionHistory",
                    fields=[
                        ("pgh_id", models.AutoField(primary_key=True, serialize=False)),
                        ("pgh_created_at", models.DateTimeField(auto_now_add=True)),
                        ("pgh_label", models.TextField(help_text="The event label.")),
                        ("pgh_context", pghistory.utils.JSONField(null=True)),
                        ("pgh_context_id", models.UUIDField(null=True)),
                        ("id", models.BigIntegerField()),
                        ("version", models.PositiveIntegerField()),
                        ("pays", models.JSONField()),
                        (
                            "status",
                            models.CharField(
                                choices=[
                                    ("proposed", "Proposed"),
                                    ("approved", "Approved"),
                                    ("rejected", "Rejected"),
                                ],
                                default="proposed",
                                max_length=16,
                            ),
                        ),
                        ("proposed_at", models.DateTimeField()),
                        ("approved_at", models.DateTimeField(blank=True, null=True)),
                        ("report", models.JSONField(blank=True, null=True)),
                        ("override_reason", models.TextField(blank=True)),
                        (
                            "approved_by",
                            models.ForeignKey(
                                blank=True,
                                db_constraint=False,
                                null=True,
                                on_delete=django.db.models.deletion.DO_NOTHING,
                                related_name="+",
                                related_query_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "proposed_by",
                            models.ForeignKey(
                                blank=True,
                                db_constraint=False,
                                null=True,
                                on_delete=django.db.models.deletion.DO_NOTHING,
                                related_name="+",
                                related_query_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "db_table": "audit_paytableversionhistory",
                    },
                ),
                migrations.CreateModel(
                    name="StaffProfileHistory",
                    fields=[
                        ("pgh_id", models.AutoField(primary_key=True, serialize=False)),
                        ("pgh_created_at", models.DateTimeField(auto_now_add=True)),
                        ("pgh_label", models.TextField(help_text="The event label.")),
                        ("pgh_context", pghistory.utils.JSONField(null=True)),
                        ("pgh_context_id", models.UUIDField(null=True)),
                        ("id", models.BigIntegerField()),
                        (
                            "role",
                            models.CharField(
                                choices=[
                                    ("floor_supervisor", "Floor supervisor"),
                                    ("pit_boss", "Pit boss"),
                                    ("compliance", "Compliance"),
                                    ("admin", "Admin"),
                                ],
                                max_length=32,
                            ),
                        ),
                        (
                            "user",
                            models.ForeignKey(
                                db_constraint=False,
                                on_delete=django.db.models.deletion.DO_NOTHING,
                                related_name="+",
                                related_query_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "db_table": "audit_staffprofilehistory",
                    },
                ),
                migrations.CreateModel(
                    name="StaffTokenHistory",
                    fields=[
                        ("pgh_id", models.AutoField(primary_key=True, serialize=False)),
                        ("pgh_created_at", models.DateTimeField(auto_now_add=True)),
                        ("pgh_label", models.TextField(help_text="The event label.")),
                        ("pgh_context", pghistory.utils.JSONField(null=True)),
                        ("pgh_context_id", models.UUIDField(null=True)),
                        ("id", models.BigIntegerField()),
                        ("key_prefix", models.CharField(max_length=12)),
                        ("is_active", models.BooleanField(default=True)),
                        ("created_at", models.DateTimeField(auto_now_add=True)),
                        (
                            "user",
                            models.ForeignKey(
                                db_constraint=False,
                                on_delete=django.db.models.deletion.DO_NOTHING,
                                related_name="+",
                                related_query_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "db_table": "audit_stafftokenhistory",
                    },
                ),
                migrations.CreateModel(
                    name="TableHistory",
                    fields=[
                        ("pgh_id", models.AutoField(primary_key=True, serialize=False)),
                        ("pgh_created_at", models.DateTimeField(auto_now_add=True)),
                        ("pgh_label", models.TextField(help_text="The event label.")),
                        ("pgh_context", pghistory.utils.JSONField(null=True)),
                        ("pgh_context_id", models.UUIDField(null=True)),
                        ("id", models.BigIntegerField()),
                        ("name", models.CharField(max_length=50)),
                        (
                            "game",
                            models.CharField(
                                choices=[
                                    ("tie_bonus_blackjack", "Tie-bonus blackjack"),
                                    ("special_points", "Special-card points"),
                                ],
                                default="tie_bonus_blackjack",
                                max_length=32,
                            ),
                        ),
                        ("decks", models.PositiveSmallIntegerField(default=6)),
                        ("dealer_hits_soft_17", models.BooleanField(default=False)),
                        ("blackjack_pays_num", models.PositiveSmallIntegerField(default=3)),
                        ("blackjack_pays_den", models.PositiveSmallIntegerField(default=2)),
                        ("double_after_split", models.BooleanField(default=True)),
                        ("max_hands", models.PositiveSmallIntegerField(default=4)),
                        ("split_by_value", models.BooleanField(default=True)),
                        ("surrender", models.BooleanField(default=False)),
                        ("insurance", models.BooleanField(default=True)),
                        ("penetration_percent", models.PositiveSmallIntegerField(default=75)),
                        ("aggregate_limit_cents", models.BigIntegerField(blank=True, null=True)),
                        ("is_active", models.BooleanField(default=True)),
                        (
                            "pit",
                            models.ForeignKey(
                                db_constraint=False,
                                on_delete=django.db.models.deletion.DO_NOTHING,
                                related_name="+",
                                related_query_name="+",
                                to="casino.pit",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "audit_tablehistory",
                    },
                ),
                migrations.CreateModel(
                    name="TableLimitHistory",
                    fields=[
                        ("pgh_id", models.AutoField(primary_key=True, serialize=False)),
                        ("pgh_created_at", models.DateTimeField(auto_now_add=True)),
                        ("pgh_label", models.TextField(help_text="The event label.")),
                        ("pgh_context", pghistory.utils.JSONField(null=True)),
                        ("pgh_context_id", models.UUIDField(null=True)),
                        ("id", models.BigIntegerField()),
                        ("kind", models.CharField(choices=WAGER_KINDS, max_length=16)),
                        ("min_cents", models.BigIntegerField()),
                        ("max_cents", models.BigIntegerField()),
                        (
                            "table",
                            models.ForeignKey(
                                db_constraint=False,
                                on_delete=django.db.models.deletion.DO_NOTHING,
                                related_name="+",
                                related_query_name="+",
                                to="casino.table",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "audit_tablelimithistory",
                    },
                ),
                migrations.CreateModel(
                    name="TerminalHistory",
                    fields=[
                        ("pgh_id", models.AutoField(primary_key=True, serialize=False)),
                        ("pgh_created_at", models.DateTimeField(auto_now_add=True)),
                        ("pgh_label", models.TextField(help_text="The event label.")),
                        ("pgh_context", pghistory.utils.JSONField(null=True)),
                        ("pgh_context_id", models.UUIDField(null=True)),
                        ("id", models.BigIntegerField()),
                        ("name", models.CharField(max_length=50)),
                        ("key_prefix", models.CharField(max_length=12)),
                        ("is_active", models.BooleanField(default=True)),
                        (
                            "table",
                            models.ForeignKey(
                                db_constraint=False,
                                on_delete=django.db.models.deletion.DO_NOTHING,
                                related_name="+",
                                related_query_name="+",
                                to="casino.table",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "audit_terminalhistory",
                    },
                ),
                migrations.CreateModel(
                    name="UserHistory",
                    fields=[
                        ("pgh_id", models.AutoField(primary_key=True, serialize=False)),
                        ("pgh_created_at", models.DateTimeField(auto_now_add=True)),
                        ("pgh_label", models.TextField(help_text="The event label.")),
                        ("pgh_context", pghistory.utils.JSONField(null=True)),
                        ("pgh_context_id", models.UUIDField(null=True)),
                        ("id", models.IntegerField()),
                        (
                            "is_superuser",
                            models.BooleanField(
                                default=False,
                                help_text="Designates that this user has all permissions without explicitly assigning them.",
                                verbose_name="superuser status",
                            ),
                        ),
                        (
                            "username",
                            models.CharField(
                                error_messages={"unique": "A user with that username already exists."},
                                help_text="Required. 150 characters or fewer. Letters, digits and @/./+/-/_ only.",
                                max_length=150,
                                validators=[django.contrib.auth.validators.UnicodeUsernameValidator()],
                                verbose_name="username",
                            ),
                        ),
                        (
                            "first_name",
                            models.CharField(blank=True, max_length=150, verbose_name="first name"),
                        ),
                        ("last_name", models.CharField(blank=True, max_length=150, verbose_name="last name")),
                        (
                            "email",
                            models.EmailField(blank=True, max_length=254, verbose_name="email address"),
                        ),
                        (
                            "is_staff",
                            models.BooleanField(
                                default=False,
                                help_text="Designates whether the user can log into this admin site.",
                                verbose_name="staff status",
                            ),
                        ),
                        (
                            "is_active",
                            models.BooleanField(
                                default=True,
                                help_text="Designates whether this user should be treated as active. Unselect this instead of deleting accounts.",
                                verbose_name="active",
                            ),
                        ),
                        (
                            "date_joined",
                            models.DateTimeField(
                                default=django.utils.timezone.now, verbose_name="date joined"
                            ),
                        ),
                        (
                            "pgh_obj",
                            models.ForeignKey(
                                db_constraint=False,
                                on_delete=django.db.models.deletion.DO_NOTHING,
                                related_name="+",
                                related_query_name="+",
                                to="history.userproxy",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "audit_userhistory",
                    },
                ),
                migrations.AddField(
                    model_name="terminalhistory",
                    name="pgh_obj",
                    field=models.ForeignKey(
                        db_constraint=False,
                        on_delete=django.db.models.deletion.DO_NOTHING,
                        related_name="+",
                        related_query_name="+",
                        to="history.terminalproxy",
                    ),
                ),
                migrations.AddField(
                    model_name="tablelimithistory",
                    name="pgh_obj",
                    field=models.ForeignKey(
                        db_constraint=False,
                        on_delete=django.db.models.deletion.DO_NOTHING,
                        related_name="+",
                        related_query_name="+",
                        to="history.tablelimitproxy",
                    ),
                ),
                migrations.AddField(
                    model_name="tablehistory",
                    name="pgh_obj",
                    field=models.ForeignKey(
                        db_constraint=False,
                        on_delete=django.db.models.deletion.DO_NOTHING,
                        related_name="+",
                        related_query_name="+",
                        to="history.tableproxy",
                    ),
                ),
                migrations.AddField(
                    model_name="stafftokenhistory",
                    name="pgh_obj",
                    field=models.ForeignKey(
                        db_constraint=False,
                        on_delete=django.db.models.deletion.DO_NOTHING,
                        related_name="+",
                        related_query_name="+",
                        to="history.stafftokenproxy",
                    ),
                ),
                migrations.AddField(
                    model_name="staffprofilehistory",
                    name="pgh_obj",
                    field=models.ForeignKey(
                        db_constraint=False,
                        on_delete=django.db.models.deletion.DO_NOTHING,
                        related_name="+",
                        related_query_name="+",
                        to="history.staffprofileproxy",
                    ),
                ),
                migrations.AddField(
                    model_name="paytableversionhistory",
                    name="pgh_obj",
                    field=models.ForeignKey(
                        db_constraint=False,
                        on_delete=django.db.models.deletion.DO_NOTHING,
                        related_name="+",
                        related_query_name="+",
                        to="history.paytableversionproxy",
                    ),
                ),
                migrations.AddField(
                    model_name="dealerhistory",
                    name="pgh_obj",
                    field=models.ForeignKey(
                        db_constraint=False,
                        on_delete=django.db.models.deletion.DO_NOTHING,
                        related_name="+",
                        related_query_name="+",
                        to="history.dealerproxy",
                    ),
                ),
            ],
            database_operations=[],
        ),
        migrations.RunSQL(DROP_AUDIT_TRIGGERS, RESTORE_AUDIT_TRIGGERS),
        pgtrigger.migrations.AddTrigger(
            model_name="userproxy",
            trigger=pgtrigger.compiler.Trigger(
                name="insert_insert",
                sql=pgtrigger.compiler.UpsertTriggerSql(
                    func='INSERT INTO "audit_userhistory" ("date_joined", "email", "first_name", "id", "is_active", "is_staff", "is_superuser", "last_name", "pgh_context", "pgh_context_id", "pgh_created_at", "pgh_label", "pgh_obj_id", "username") VALUES (NEW."date_joined", NEW."email", NEW."first_name", NEW."id", NEW."is_active", NEW."is_staff", NEW."is_superuser", NEW."last_name", COALESCE(NULLIF(CURRENT_SETTING(\'pghistory.context_metadata\', TRUE), \'\'), NULL)::JSONB, COALESCE(NULLIF(CURRENT_SETTING(\'pghistory.context_id\', TRUE), \'\'), NULL)::UUID, NOW(), \'insert\', NEW."id", NEW."username"); RETURN NULL;',
                    hash="69cebb60a08fbb7dffad2d09b0f17fc8cf3d7c78",
                    operation="INSERT",
                    pgid="pgtrigger_insert_insert_ea095",
                    table="auth_user",
                    when="AFTER",
                ),
            ),
        ),
        pgtrigger.migrations.AddTrigger(
            model_name="userproxy",
            trigger=pgtrigger.compiler.Trigger(
                name="update_update",
                sql=pgtrigger.compiler.UpsertTriggerSql(
                    condition='WHEN (OLD."date_joined" IS DISTINCT FROM (NEW."date_joined") OR OLD."email" IS DISTINCT FROM (NEW."email") OR OLD."first_name" IS DISTINCT FROM (NEW."first_name") OR OLD."id" IS DISTINCT FROM (NEW."id") OR OLD."is_active" IS DISTINCT FROM (NEW."is_active") OR OLD."is_staff" IS DISTINCT FROM (NEW."is_staff") OR OLD."is_superuser" IS DISTINCT FROM (NEW."is_superuser") OR OLD."last_name" IS DISTINCT FROM (NEW."last_name") OR OLD."username" IS DISTINCT FROM (NEW."username"))',
                    func='INSERT INTO "audit_userhistory" ("date_joined", "email", "first_name", "id", "is_active", "is_staff", "is_superuser", "last_name", "pgh_context", "pgh_context_id", "pgh_created_at", "pgh_label", "pgh_obj_id", "username") VALUES (NEW."date_joined", NEW."email", NEW."first_name", NEW."id", NEW."is_active", NEW."is_staff", NEW."is_superuser", NEW."last_name", COALESCE(NULLIF(CURRENT_SETTING(\'pghistory.context_metadata\', TRUE), \'\'), NULL)::JSONB, COALESCE(NULLIF(CURRENT_SETTING(\'pghistory.context_id\', TRUE), \'\'), NULL)::UUID, NOW(), \'update\', NEW."id", NEW."username"); RETURN NULL;',
                    hash="4d0a2447e21cbce7380009d23f907054846d94e9",
                    operation="UPDATE",
                    pgid="pgtrigger_update_update_b4d56",
                    table="auth_user",
                    when="AFTER",
                ),
            ),
        ),
        pgtrigger.migrations.AddTrigger(
            model_name="userproxy",
            trigger=pgtrigger.compiler.Trigger(
                name="delete_delete",
                sql=pgtrigger.compiler.UpsertTriggerSql(
                    func='INSERT INTO "audit_userhistory" ("date_joined", "email", "first_name", "id", "is_active", "is_staff", "is_superuser", "last_name", "pgh_context", "pgh_context_id", "pgh_created_at", "pgh_label", "pgh_obj_id", "username") VALUES (OLD."date_joined", OLD."email", OLD."first_name", OLD."id", OLD."is_active", OLD."is_staff", OLD."is_superuser", OLD."last_name", COALESCE(NULLIF(CURRENT_SETTING(\'pghistory.context_metadata\', TRUE), \'\'), NULL)::JSONB, COALESCE(NULLIF(CURRENT_SETTING(\'pghistory.context_id\', TRUE), \'\'), NULL)::UUID, NOW(), \'delete\', OLD."id", OLD."username"); RETURN NULL;',
                    hash="70b48c345614e89edfc5b85e1ee0abedfe56ff29",
                    operation="DELETE",
                    pgid="pgtrigger_delete_delete_effc9",
                    table="auth_user",
                    when="AFTER",
                ),
            ),
        ),
        pgtrigger.migrations.AddTrigger(
            model_name="userproxy",
            trigger=pgtrigger.compiler.Trigger(
                name="secret_changed_update",
                sql=pgtrigger.compiler.UpsertTriggerSql(
                    condition='WHEN (OLD."password" IS DISTINCT FROM (NEW."password"))',
                    func='INSERT INTO "audit_userhistory" ("date_joined", "email", "first_name", "id", "is_active", "is_staff", "is_superuser", "last_name", "pgh_context", "pgh_context_id", "pgh_created_at", "pgh_label", "pgh_obj_id", "username") VALUES (NEW."date_joined", NEW."email", NEW."first_name", NEW."id", NEW."is_active", NEW."is_staff", NEW."is_superuser", NEW."last_name", COALESCE(NULLIF(CURRENT_SETTING(\'pghistory.context_metadata\', TRUE), \'\'), NULL)::JSONB, COALESCE(NULLIF(CURRENT_SETTING(\'pghistory.context_id\', TRUE), \'\'), NULL)::UUID, NOW(), \'secret_changed\', NEW."id", NEW."username"); RETURN NULL;',
                    hash="a50f84d8d605e1be666743ad10e86b7239e6fa3b",
                    operation="UPDATE",
                    pgid="pgtrigger_secret_changed_update_76a40",
                    table="auth_user",
                    when="AFTER",
                ),
            ),
        ),
        pgtrigger.migrations.AddTrigger(
            model_name="terminalproxy",
            trigger=pgtrigger.compiler.Trigger(
                name="insert_insert",
                sql=pgtrigger.compiler.UpsertTriggerSql(
                    func='INSERT INTO "audit_terminalhistory" ("id", "is_active", "key_prefix", "name", "pgh_context", "pgh_context_id", "pgh_created_at", "pgh_label", "pgh_obj_id", "table_id") VALUES (NEW."id", NEW."is_active", NEW."key_prefix", NEW."name", COALESCE(NULLIF(CURRENT_SETTING(\'pghistory.context_metadata\', TRUE), \'\'), NULL)::JSONB, COALESCE(NULLIF(CURRENT_SETTING(\'pghistory.context_id\', TRUE), \'\'), NULL)::UUID, NOW(), \'insert\', NEW."id", NEW."table_id"); RETURN NULL;',
                    hash="70928defccbec9171f3006b9ef7eef34d6d660ce",
                    operation="INSERT",
                    pgid="pgtrigger_insert_insert_95379",
                    table="casino_terminal",
                    when="AFTER",
                ),
            ),
        ),
        pgtrigger.migrations.AddTrigger(
            model_name="terminalproxy",
            trigger=pgtrigger.compiler.Trigger(
                name="update_update",
                sql=pgtrigger.compiler.UpsertTriggerSql(
                    condition='WHEN (OLD."id" IS DISTINCT FROM (NEW."id") OR OLD."is_active" IS DISTINCT FROM (NEW."is_active") OR OLD."key_prefix" IS DISTINCT FROM (NEW."key_prefix") OR OLD."name" IS DISTINCT FROM (NEW."name") OR OLD."table_id" IS DISTINCT FROM (NEW."table_id"))',
                    func='INSERT INTO "audit_terminalhistory" ("id", "is_active", "key_prefix", "name", "pgh_context", "pgh_context_id", "pgh_created_at", "pgh_label", "pgh_obj_id", "table_id") VALUES (NEW."id", NEW."is_active", NEW."key_prefix", NEW."name", COALESCE(NULLIF(CURRENT_SETTING(\'pghistory.context_metadata\', TRUE), \'\'), NULL)::JSONB, COALESCE(NULLIF(CURRENT_SETTING(\'pghistory.context_id\', TRUE), \'\'), NULL)::UUID, NOW(), \'update\', NEW."id", NEW."table_id"); RETURN NULL;',
                    hash="f3f4303aeb0b9653fd4226b5650ec653e80dc6c4",
                    operation="UPDATE",
                    pgid="pgtrigger_update_update_f5137",
                    table="casino_terminal",
                    when="AFTER",
                ),
            ),
        ),
        pgtrigger.migrations.AddTrigger(
            model_name="terminalproxy",
            trigger=pgtrigger.compiler.Trigger(
                name="delete_delete",
                sql=pgtrigger.compiler.UpsertTriggerSql(
                    func='INSERT INTO "audit_terminalhistory" ("id", "is_active", "key_prefix", "name", "pgh_context", "pgh_context_id", "pgh_created_at", "pgh_label", "pgh_obj_id", "table_id") VALUES (OLD."id", OLD."is_active", OLD."key_prefix", OLD."name", COALESCE(NULLIF(CURRENT_SETTING(\'pghistory.context_metadata\', TRUE), \'\'), NULL)::JSONB, COALESCE(NULLIF(CURRENT_SETTING(\'pghistory.context_id\', TRUE), \'\'), NULL)::UUID, NOW(), \'delete\', OLD."id", OLD."table_id"); RETURN NULL;',
                    hash="43b0453b3a9d38ca9b7ad8ed72254602f549aa4f",
                    operation="DELETE",
                    pgid="pgtrigger_delete_delete_c99cc",
                    table="casino_terminal",
                    when="AFTER",
                ),
            ),
        ),
        pgtrigger.migrations.AddTrigger(
            model_name="terminalproxy",
            trigger=pgtrigger.compiler.Trigger(
                name="secret_changed_update",
                sql=pgtrigger.compiler.UpsertTriggerSql(
                    condition='WHEN (OLD."key_hash" IS DISTINCT FROM (NEW."key_hash"))',
                    func='INSERT INTO "audit_terminalhistory" ("id", "is_active", "key_prefix", "name", "pgh_context", "pgh_context_id", "pgh_created_at", "pgh_label", "pgh_obj_id", "table_id") VALUES (NEW."id", NEW."is_active", NEW."key_prefix", NEW."name", COALESCE(NULLIF(CURRENT_SETTING(\'pghistory.context_metadata\', TRUE), \'\'), NULL)::JSONB, COALESCE(NULLIF(CURRENT_SETTING(\'pghistory.context_id\', TRUE), \'\'), NULL)::UUID, NOW(), \'secret_changed\', NEW."id", NEW."table_id"); RETURN NULL;',
                    hash="a8b59b448a2bfbac80f313c60ff71a6ff93a2c17",
                    operation="UPDATE",
                    pgid="pgtrigger_secret_changed_update_32b93",
                    table="casino_terminal",
                    when="AFTER",
                ),
            ),
        ),
        pgtrigger.migrations.AddTrigger(
            model_name="tablelimitproxy",
            trigger=pgtrigger.compiler.Trigger(
                name="insert_insert",
                sql=pgtrigger.compiler.UpsertTriggerSql(
                    func='INSERT INTO "audit_tablelimithistory" ("id", "kind", "max_cents", "min_cents", "pgh_context", "pgh_context_id", "pgh_created_at", "pgh_label", "pgh_obj_id", "table_id") VALUES (NEW."id", NEW."kind", NEW."max_cents", NEW."min_cents", COALESCE(NULLIF(CURRENT_SETTING(\'pghistory.context_metadata\', TRUE), \'\'), NULL)::JSONB, COALESCE(NULLIF(CURRENT_SETTING(\'pghistory.context_id\', TRUE), \'\'), NULL)::UUID, NOW(), \'insert\', NEW."id", NEW."table_id"); RETURN NULL;',
                    hash="22d14f34a0b864b9a0ae84b2738df8ad17c5f4d4",
                    operation="INSERT",
                    pgid="pgtrigger_insert_insert_1e951",
                    table="casino_tablelimit",
                    when="AFTER",
                ),
            ),
        ),
        pgtrigger.migrations.AddTrigger(
            model_name="tablelimitproxy",
            trigger=pgtrigger.compiler.Trigger(
                name="update_update",
                sql=pgtrigger.compiler.UpsertTriggerSql(
                    condition="WHEN (OLD.* IS DISTINCT FROM NEW.*)",
                    func='INSERT INTO "audit_tablelimithistory" ("id", "kind", "max_cents", "min_cents", "pgh_context", "pgh_context_id", "pgh_created_at", "pgh_label", "pgh_obj_id", "table_id") VALUES (NEW."id", NEW."kind", NEW."max_cents", NEW."min_cents", COALESCE(NULLIF(CURRENT_SETTING(\'pghistory.context_metadata\', TRUE), \'\'), NULL)::JSONB, COALESCE(NULLIF(CURRENT_SETTING(\'pghistory.context_id\', TRUE), \'\'), NULL)::UUID, NOW(), \'update\', NEW."id", NEW."table_id"); RETURN NULL;',
                    hash="c8096ca83bc385ea934e891ace5a33e2a382973a",
                    operation="UPDATE",
                    pgid="pgtrigger_update_update_94286",
                    table="casino_tablelimit",
                    when="AFTER",
                ),
            ),
        ),
        pgtrigger.migrations.AddTrigger(
            model_name="tablelimitproxy",
            trigger=pgtrigger.compiler.Trigger(
                name="delete_delete",
                sql=pgtrigger.compiler.UpsertTriggerSql(
                    func='INSERT INTO "audit_tablelimithistory" ("id", "kind", "max_cents", "min_cents", "pgh_context", "pgh_context_id", "pgh_created_at", "pgh_label", "pgh_obj_id", "table_id") VALUES (OLD."id", OLD."kind", OLD."max_cents", OLD."min_cents", COALESCE(NULLIF(CURRENT_SETTING(\'pghistory.context_metadata\', TRUE), \'\'), NULL)::JSONB, COALESCE(NULLIF(CURRENT_SETTING(\'pghistory.context_id\', TRUE), \'\'), NULL)::UUID, NOW(), \'delete\', OLD."id", OLD."table_id"); RETURN NULL;',
                    hash="6ae388b76b8050dfe48f4fdd6a0935c59c0b2a6c",
                    operation="DELETE",
                    pgid="pgtrigger_delete_delete_39ffe",
                    table="casino_tablelimit",
                    when="AFTER",
                ),
            ),
        ),
        pgtrigger.migrations.AddTrigger(
            model_name="tableproxy",
            trigger=pgtrigger.compiler.Trigger(
                name="insert_insert",
                sql=pgtrigger.compiler.UpsertTriggerSql(
                    func='INSERT INTO "audit_tablehistory" ("aggregate_limit_cents", "blackjack_pays_den", "blackjack_pays_num", "dealer_hits_soft_17", "decks", "double_after_split", "game", "id", "insurance", "is_active", "max_hands", "name", "penetration_percent", "pgh_context", "pgh_context_id", "pgh_created_at", "pgh_label", "pgh_obj_id", "pit_id", "split_by_value", "surrender") VALUES (NEW."aggregate_limit_cents", NEW."blackjack_pays_den", NEW."blackjack_pays_num", NEW."dealer_hits_soft_17", NEW."decks", NEW."double_after_split", NEW."game", NEW."id", NEW."insurance", NEW."is_active", NEW."max_hands", NEW."name", NEW."penetration_percent", COALESCE(NULLIF(CURRENT_SETTING(\'pghistory.context_metadata\', TRUE), \'\'), NULL)::JSONB, COALESCE(NULLIF(CURRENT_SETTING(\'pghistory.context_id\', TRUE), \'\'), NULL)::UUID, NOW(), \'insert\', NEW."id", NEW."pit_id", NEW."split_by_value", NEW."surrender"); RETURN NULL;',
                    hash="f6e5c9ebf6b40e8139d5e8178ad8e50c30a4ed5d",
                    operation="INSERT",
                    pgid="pgtrigger_insert_insert_28502",
                    table="casino_table",
                    when="AFTER",
                ),
            ),
        ),
        pgtrigger.migrations.AddTrigger(
            model_name="tableproxy",
            trigger=pgtrigger.compiler.Trigger(
                name="update_update",
                sql=pgtrigger.compiler.UpsertTriggerSql(
                    condition="WHEN (OLD.* IS DISTINCT FROM NEW.*)",
                    func='INSERT INTO "audit_tablehistory" ("aggregate_limit_cents", "blackjack_pays_den", "blackjack_pays_num", "dealer_hits_soft_17", "decks", "double_after_split", "game", "id", "insurance", "is_active", "max_hands", "name", "penetration_percent", "pgh_context", "pgh_context_id", "pgh_created_at", "pgh_label", "pgh_obj_id", "pit_id", "split_by_value", "surrender") VALUES (NEW."aggregate_limit_cents", NEW."blackjack_pays_den", NEW."blackjack_pays_num", NEW."dealer_hits_soft_17", NEW."decks", NEW."double_after_split", NEW."game", NEW."id", NEW."insurance", NEW."is_active", NEW."max_hands", NEW."name", NEW."penetration_percent", COALESCE(NULLIF(CURRENT_SETTING(\'pghistory.context_metadata\', TRUE), \'\'), NULL)::JSONB, COALESCE(NULLIF(CURRENT_SETTING(\'pghistory.context_id\', TRUE), \'\'), NULL)::UUID, NOW(), \'update\', NEW."id", NEW."pit_id", NEW."split_by_value", NEW."surrender"); RETURN NULL;',
                    hash="7f8627ffba9493c7a81735be037fd1767034b553",
                    operation="UPDATE",
                    pgid="pgtrigger_update_update_8fd66",
                    table="casino_table",
                    when="AFTER",
                ),
            ),
        ),
        pgtrigger.migrations.AddTrigger(
            model_name="tableproxy",
            trigger=pgtrigger.compiler.Trigger(
                name="delete_delete",
                sql=pgtrigger.compiler.UpsertTriggerSql(
                    func='INSERT INTO "audit_tablehistory" ("aggregate_limit_cents", "blackjack_pays_den", "blackjack_pays_num", "dealer_hits_soft_17", "decks", "double_after_split", "game", "id", "insurance", "is_active", "max_hands", "name", "penetration_percent", "pgh_context", "pgh_context_id", "pgh_created_at", "pgh_label", "pgh_obj_id", "pit_id", "split_by_value", "surrender") VALUES (OLD."aggregate_limit_cents", OLD."blackjack_pays_den", OLD."blackjack_pays_num", OLD."dealer_hits_soft_17", OLD."decks", OLD."double_after_split", OLD."game", OLD."id", OLD."insurance", OLD."is_active", OLD."max_hands", OLD."name", OLD."penetration_percent", COALESCE(NULLIF(CURRENT_SETTING(\'pghistory.context_metadata\', TRUE), \'\'), NULL)::JSONB, COALESCE(NULLIF(CURRENT_SETTING(\'pghistory.context_id\', TRUE), \'\'), NULL)::UUID, NOW(), \'delete\', OLD."id", OLD."pit_id", OLD."split_by_value", OLD."surrender"); RETURN NULL;',
                    hash="230c7455913f4198c4f305a6d1067fb80c872436",
                    operation="DELETE",
                    pgid="pgtrigger_delete_delete_cf10a",
                    table="casino_table",
                    when="AFTER",
                ),
            ),
        ),
        pgtrigger.migrations.AddTrigger(
            model_name="stafftokenproxy",
            trigger=pgtrigger.compiler.Trigger(
                name="insert_insert",
                sql=pgtrigger.compiler.UpsertTriggerSql(
                    func='INSERT INTO "audit_stafftokenhistory" ("created_at", "id", "is_active", "key_prefix", "pgh_context", "pgh_context_id", "pgh_created_at", "pgh_label", "pgh_obj_id", "user_id") VALUES (NEW."created_at", NEW."id", NEW."is_active", NEW."key_prefix", COALESCE(NULLIF(CURRENT_SETTING(\'pghistory.context_metadata\', TRUE), \'\'), NULL)::JSONB, COALESCE(NULLIF(CURRENT_SETTING(\'pghistory.context_id\', TRUE), \'\'), NULL)::UUID, NOW(), \'insert\', NEW."id", NEW."user_id"); RETURN NULL;',
                    hash="f717f8b4c86a51b795f67ff1c244e9eb4ff1b358",
                    operation="INSERT",
                    pgid="pgtrigger_insert_insert_65117",
                    table="casino_stafftoken",
                    when="AFTER",
                ),
            ),
        ),
        pgtrigger.migrations.AddTrigger(
            model_name="stafftokenproxy",
            trigger=pgtrigger.compiler.Trigger(
                name="update_update",
                sql=pgtrigger.compiler.UpsertTriggerSql(
                    condition='WHEN (OLD."created_at" IS DISTINCT FROM (NEW."created_at") OR OLD."id" IS DISTINCT FROM (NEW."id") OR OLD."is_active" IS DISTINCT FROM (NEW."is_active") OR OLD."key_prefix" IS DISTINCT FROM (NEW."key_prefix") OR OLD."user_id" IS DISTINCT FROM (NEW."user_id"))',
                    func='INSERT INTO "audit_stafftokenhistory" ("created_at", "id", "is_active", "key_prefix", "pgh_context", "pgh_context_id", "pgh_created_at", "pgh_label", "pgh_obj_id", "user_id") VALUES (NEW."created_at", NEW."id", NEW."is_active", NEW."key_prefix", COALESCE(NULLIF(CURRENT_SETTING(\'pghistory.context_metadata\', TRUE), \'\'), NULL)::JSONB, COALESCE(NULLIF(CURRENT_SETTING(\'pghistory.context_id\', TRUE), \'\'), NULL)::UUID, NOW(), \'update\', NEW."id", NEW."user_id"); RETURN NULL;',
                    hash="a3ba7e03471b0529eb01e2696c20a85acbb32f08",
                    operation="UPDATE",
                    pgid="pgtrigger_update_update_188f7",
                    table="casino_stafftoken",
                    when="AFTER",
                ),
            ),
        ),
        pgtrigger.migrations.AddTrigger(
            model_name="stafftokenproxy",
            trigger=pgtrigger.compiler.Trigger(
                name="delete_delete",
                sql=pgtrigger.compiler.UpsertTriggerSql(
                    func='INSERT INTO "audit_stafftokenhistory" ("created_at", "id", "is_active", "key_prefix", "pgh_context", "pgh_context_id", "pgh_created_at", "pgh_label", "pgh_obj_id", "user_id") VALUES (OLD."created_at", OLD."id", OLD."is_active", OLD."key_prefix", COALESCE(NULLIF(CURRENT_SETTING(\'pghistory.context_metadata\', TRUE), \'\'), NULL)::JSONB, COALESCE(NULLIF(CURRENT_SETTING(\'pghistory.context_id\', TRUE), \'\'), NULL)::UUID, NOW(), \'delete\', OLD."id", OLD."user_id"); RETURN NULL;',
                    hash="ad9ba0be21dfe4fa883a2ba048b01af1c2b9c88f",
                    operation="DELETE",
                    pgid="pgtrigger_delete_delete_627bf",
                    table="casino_stafftoken",
                    when="AFTER",
                ),
            ),
        ),
        pgtrigger.migrations.AddTrigger(
            model_name="stafftokenproxy",
            trigger=pgtrigger.compiler.Trigger(
                name="secret_changed_update",
                sql=pgtrigger.compiler.UpsertTriggerSql(
                    condition='WHEN (OLD."key_hash" IS DISTINCT FROM (NEW."key_hash"))',
                    func='INSERT INTO "audit_stafftokenhistory" ("created_at", "id", "is_active", "key_prefix", "pgh_context", "pgh_context_id", "pgh_created_at", "pgh_label", "pgh_obj_id", "user_id") VALUES (NEW."created_at", NEW."id", NEW."is_active", NEW."key_prefix", COALESCE(NULLIF(CURRENT_SETTING(\'pghistory.context_metadata\', TRUE), \'\'), NULL)::JSONB, COALESCE(NULLIF(CURRENT_SETTING(\'pghistory.context_id\', TRUE), \'\'), NULL)::UUID, NOW(), \'secret_changed\', NEW."id", NEW."user_id"); RETURN NULL;',
                    hash="a09475558d0e68047888c49c1d4ce6e98b127f90",
                    operation="UPDATE",
                    pgid="pgtrigger_secret_changed_update_6b3bd",
                    table="casino_stafftoken",
                    when="AFTER",
                ),
            ),
        ),
        pgtrigger.migrations.AddTrigger(
            model_name="staffprofileproxy",
            trigger=pgtrigger.compiler.Trigger(
                name="insert_insert",
                sql=pgtrigger.compiler.UpsertTriggerSql(
                    func='INSERT INTO "audit_staffprofilehistory" ("id", "pgh_context", "pgh_context_id", "pgh_created_at", "pgh_label", "pgh_obj_id", "role", "user_id") VALUES (NEW."id", COALESCE(NULLIF(CURRENT_SETTING(\'pghistory.context_metadata\', TRUE), \'\'), NULL)::JSONB, COALESCE(NULLIF(CURRENT_SETTING(\'pghistory.context_id\', TRUE), \'\'), NULL)::UUID, NOW(), \'insert\', NEW."id", NEW."role", NEW."user_id"); RETURN NULL;',
                    hash="949b1999b1dd8e5fc46f51887f124fdc37db61fd",
                    operation="INSERT",
                    pgid="pgtrigger_insert_insert_d9024",
                    table="casino_staffprofile",
                    when="AFTER",
                ),
            ),
        ),
        pgtrigger.migrations.AddTrigger(
            model_name="staffprofileproxy",
            trigger=pgtrigger.compiler.Trigger(
                name="update_update",
                sql=pgtrigger.compiler.UpsertTriggerSql(
                    condition="WHEN (OLD.* IS DISTINCT FROM NEW.*)",
                    func='INSERT INTO "audit_staffprofilehistory" ("id", "pgh_context", "pgh_context_id", "pgh_created_at", "pgh_label", "pgh_obj_id", "role", "user_id") VALUES (NEW."id", COALESCE(NULLIF(CURRENT_SETTING(\'pghistory.context_metadata\', TRUE), \'\'), NULL)::JSONB, COALESCE(NULLIF(CURRENT_SETTING(\'pghistory.context_id\', TRUE), \'\'), NULL)::UUID, NOW(), \'update\', NEW."id", NEW."role", NEW."user_id"); RETURN NULL;',
                    hash="2ec1033b4babc787318f1286729d504e4dacd2a4",
                    operation="UPDATE",
                    pgid="pgtrigger_update_update_a7f43",
                    table="casino_staffprofile",
                    when="AFTER",
                ),
            ),
        ),
        pgtrigger.migrations.AddTrigger(
            model_name="staffprofileproxy",
            trigger=pgtrigger.compiler.Trigger(
                name="delete_delete",
                sql=pgtrigger.compiler.UpsertTriggerSql(
                    func='INSERT INTO "audit_staffprofilehistory" ("id", "pgh_context", "pgh_context_id", "pgh_created_at", "pgh_label", "pgh_obj_id", "role", "user_id") VALUES (OLD."id", COALESCE(NULLIF(CURRENT_SETTING(\'pghistory.context_metadata\', TRUE), \'\'), NULL)::JSONB, COALESCE(NULLIF(CURRENT_SETTING(\'pghistory.context_id\', TRUE), \'\'), NULL)::UUID, NOW(), \'delete\', OLD."id", OLD."role", OLD."user_id"); RETURN NULL;',
                    hash="97639b46f37259d1052347396d1b4863ec8e6706",
                    operation="DELETE",
                    pgid="pgtrigger_delete_delete_6cdb5",
                    table="casino_staffprofile",
                    when="AFTER",
                ),
            ),
        ),
        pgtrigger.migrations.AddTrigger(
            model_name="paytableversionproxy",
            trigger=pgtrigger.compiler.Trigger(
                name="insert_insert",
                sql=pgtrigger.compiler.UpsertTriggerSql(
                    func='INSERT INTO "audit_paytableversionhistory" ("approved_at", "approved_by_id", "id", "override_reason", "pays", "pgh_context", "pgh_context_id", "pgh_created_at", "pgh_label", "pgh_obj_id", "proposed_at", "proposed_by_id", "report", "status", "version") VALUES (NEW."approved_at", NEW."approved_by_id", NEW."id", NEW."override_reason", NEW."pays", COALESCE(NULLIF(CURRENT_SETTING(\'pghistory.context_metadata\', TRUE), \'\'), NULL)::JSONB, COALESCE(NULLIF(CURRENT_SETTING(\'pghistory.context_id\', TRUE), \'\'), NULL)::UUID, NOW(), \'insert\', NEW."id", NEW."proposed_at", NEW."proposed_by_id", NEW."report", NEW."status", NEW."version"); RETURN NULL;',
                    hash="4f65d5debbbf7c0a4055cb0fe747530a4c47df08",
                    operation="INSERT",
                    pgid="pgtrigger_insert_insert_82da4",
                    table="bonus_tie_paytableversion",
                    when="AFTER",
                ),
            ),
        ),
        pgtrigger.migrations.AddTrigger(
            model_name="paytableversionproxy",
            trigger=pgtrigger.compiler.Trigger(
                name="update_update",
                sql=pgtrigger.compiler.UpsertTriggerSql(
                    condition="WHEN (OLD.* IS DISTINCT FROM NEW.*)",
                    func='INSERT INTO "audit_paytableversionhistory" ("approved_at", "approved_by_id", "id", "override_reason", "pays", "pgh_context", "pgh_context_id", "pgh_created_at", "pgh_label", "pgh_obj_id", "proposed_at", "proposed_by_id", "report", "status", "version") VALUES (NEW."approved_at", NEW."approved_by_id", NEW."id", NEW."override_reason", NEW."pays", COALESCE(NULLIF(CURRENT_SETTING(\'pghistory.context_metadata\', TRUE), \'\'), NULL)::JSONB, COALESCE(NULLIF(CURRENT_SETTING(\'pghistory.context_id\', TRUE), \'\'), NULL)::UUID, NOW(), \'update\', NEW."id", NEW."proposed_at", NEW."proposed_by_id", NEW."report", NEW."status", NEW."version"); RETURN NULL;',
                    hash="4f016e7785892a2229cee81fb082c27d1acf3f9b",
                    operation="UPDATE",
                    pgid="pgtrigger_update_update_a440e",
                    table="bonus_tie_paytableversion",
                    when="AFTER",
                ),
            ),
        ),
        pgtrigger.migrations.AddTrigger(
            model_name="paytableversionproxy",
            trigger=pgtrigger.compiler.Trigger(
                name="delete_delete",
                sql=pgtrigger.compiler.UpsertTriggerSql(
                    func='INSERT INTO "audit_paytableversionhistory" ("approved_at", "approved_by_id", "id", "override_reason", "pays", "pgh_context", "pgh_context_id", "pgh_created_at", "pgh_label", "pgh_obj_id", "proposed_at", "proposed_by_id", "report", "status", "version") VALUES (OLD."approved_at", OLD."approved_by_id", OLD."id", OLD."override_reason", OLD."pays", COALESCE(NULLIF(CURRENT_SETTING(\'pghistory.context_metadata\', TRUE), \'\'), NULL)::JSONB, COALESCE(NULLIF(CURRENT_SETTING(\'pghistory.context_id\', TRUE), \'\'), NULL)::UUID, NOW(), \'delete\', OLD."id", OLD."proposed_at", OLD."proposed_by_id", OLD."report", OLD."status", OLD."version"); RETURN NULL;',
                    hash="0a4ab2864baa34bb434b1cb07640122bc153bea0",
                    operation="DELETE",
                    pgid="pgtrigger_delete_delete_c4d0b",
                    table="bonus_tie_paytableversion",
                    when="AFTER",
                ),
            ),
        ),
        pgtrigger.migrations.AddTrigger(
            model_name="dealerproxy",
            trigger=pgtrigger.compiler.Trigger(
                name="insert_insert",
                sql=pgtrigger.compiler.UpsertTriggerSql(
                    func='INSERT INTO "audit_dealerhistory" ("badge", "id", "is_active", "name", "pgh_context", "pgh_context_id", "pgh_created_at", "pgh_label", "pgh_obj_id") VALUES (NEW."badge", NEW."id", NEW."is_active", NEW."name", COALESCE(NULLIF(CURRENT_SETTING(\'pghistory.context_metadata\', TRUE), \'\'), NULL)::JSONB, COALESCE(NULLIF(CURRENT_SETTING(\'pghistory.context_id\', TRUE), \'\'), NULL)::UUID, NOW(), \'insert\', NEW."id"); RETURN NULL;',
                    hash="384f3f0e6bfae0aeaa270aedbb61f2172da6e491",
                    operation="INSERT",
                    pgid="pgtrigger_insert_insert_4ff58",
                    table="casino_dealer",
                    when="AFTER",
                ),
            ),
        ),
        pgtrigger.migrations.AddTrigger(
            model_name="dealerproxy",
            trigger=pgtrigger.compiler.Trigger(
                name="update_update",
                sql=pgtrigger.compiler.UpsertTriggerSql(
                    condition='WHEN (OLD."badge" IS DISTINCT FROM (NEW."badge") OR OLD."id" IS DISTINCT FROM (NEW."id") OR OLD."is_active" IS DISTINCT FROM (NEW."is_active") OR OLD."name" IS DISTINCT FROM (NEW."name"))',
                    func='INSERT INTO "audit_dealerhistory" ("badge", "id", "is_active", "name", "pgh_context", "pgh_context_id", "pgh_created_at", "pgh_label", "pgh_obj_id") VALUES (NEW."badge", NEW."id", NEW."is_active", NEW."name", COALESCE(NULLIF(CURRENT_SETTING(\'pghistory.context_metadata\', TRUE), \'\'), NULL)::JSONB, COALESCE(NULLIF(CURRENT_SETTING(\'pghistory.context_id\', TRUE), \'\'), NULL)::UUID, NOW(), \'update\', NEW."id"); RETURN NULL;',
                    hash="deaba706b8f707387f5af9b412b611515aa8ab85",
                    operation="UPDATE",
                    pgid="pgtrigger_update_update_c61cc",
                    table="casino_dealer",
                    when="AFTER",
                ),
            ),
        ),
        pgtrigger.migrations.AddTrigger(
            model_name="dealerproxy",
            trigger=pgtrigger.compiler.Trigger(
                name="delete_delete",
                sql=pgtrigger.compiler.UpsertTriggerSql(
                    func='INSERT INTO "audit_dealerhistory" ("badge", "id", "is_active", "name", "pgh_context", "pgh_context_id", "pgh_created_at", "pgh_label", "pgh_obj_id") VALUES (OLD."badge", OLD."id", OLD."is_active", OLD."name", COALESCE(NULLIF(CURRENT_SETTING(\'pghistory.context_metadata\', TRUE), \'\'), NULL)::JSONB, COALESCE(NULLIF(CURRENT_SETTING(\'pghistory.context_id\', TRUE), \'\'), NULL)::UUID, NOW(), \'delete\', OLD."id"); RETURN NULL;',
                    hash="d197963be5711839464b7d9a33970eba8c74b6a0",
                    operation="DELETE",
                    pgid="pgtrigger_delete_delete_ca9db",
                    table="casino_dealer",
                    when="AFTER",
                ),
            ),
        ),
        pgtrigger.migrations.AddTrigger(
            model_name="dealerproxy",
            trigger=pgtrigger.compiler.Trigger(
                name="secret_changed_update",
                sql=pgtrigger.compiler.UpsertTriggerSql(
                    condition='WHEN (OLD."pin_hash" IS DISTINCT FROM (NEW."pin_hash"))',
                    func='INSERT INTO "audit_dealerhistory" ("badge", "id", "is_active", "name", "pgh_context", "pgh_context_id", "pgh_created_at", "pgh_label", "pgh_obj_id") VALUES (NEW."badge", NEW."id", NEW."is_active", NEW."name", COALESCE(NULLIF(CURRENT_SETTING(\'pghistory.context_metadata\', TRUE), \'\'), NULL)::JSONB, COALESCE(NULLIF(CURRENT_SETTING(\'pghistory.context_id\', TRUE), \'\'), NULL)::UUID, NOW(), \'secret_changed\', NEW."id"); RETURN NULL;',
                    hash="f6d3a7994286cd8057dbae484ddd57af35056939",
                    operation="UPDATE",
                    pgid="pgtrigger_secret_changed_update_6f04e",
                    table="casino_dealer",
                    when="AFTER",
                ),
            ),
        ),
    ]
