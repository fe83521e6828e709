"""The task worker: the periodic schedule (infra/periodic.py) and, with TASKS_BACKEND=database, the
queue's tasks, in one process. Run one or more, on any servers: the schedule's claims keep two
workers from enqueuing one run twice, and django-tasks-db's row locks from running one task twice.
A worker killed while running a task leaves it running; its lease (infra/leases.py) gives it back
to the queue: at once when it starts again under the same ``--worker-id``, else when the lease ends."""

import logging
import signal
import sys
import threading

from django.core.management.base import BaseCommand, CommandError
from django.tasks import DEFAULT_TASK_BACKEND_ALIAS, task_backends
from django.utils.crypto import get_random_string
from django_tasks_db.backend import DatabaseBackend
from django_tasks_db.management.commands.db_worker import Worker

from infra import leases
from infra.periodic import Scheduler

logger = logging.getLogger("infra.periodic")
LOGGERS = ["infra.periodic", "infra.tasklog", "django_tasks_db"]


class QueueWorker(Worker):
    """django-tasks-db's worker loop, which on SIGTERM or SIGINT also stops the schedule beside it."""

    def __init__(self, *, stop: threading.Event, **options):
        super().__init__(**options)
        self.stop = stop

    def shutdown(self, signum, frame):
        self.stop.set()
        super().shutdown(signum, frame)


class Command(BaseCommand):
    help = (
        "Run the task worker: every few seconds enqueue the periodic tasks that are due, and with "
        "TASKS_BACKEND=database run queued tasks too. Stops cleanly on SIGTERM or SIGINT, after the "
        "task it is running; a second signal stops it at once."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--check-every",
            type=float,
            default=5.0,
            help="Seconds between looks at the periodic schedule (default 5).",
        )
        parser.add_argument(
            "--interval",
            type=float,
            default=0.2,
            help="With the database backend: seconds to wait, when the queue is empty, before looking "
            "again (default 0.2: a publish waits at most that long for its render to start).",
        )
        parser.add_argument(
            "--queue-name",
            default="*",
            help="With the database backend: the queues to run, comma-separated, or '*' for all (the "
            "default). 'default' takes what a publish enqueues, 'periodic' the schedule's long runs: "
            "a worker for each keeps a publish's render from waiting behind the whole-site file.",
        )
        parser.add_argument(
            "--worker-id",
            default="",
            help="With the database backend: this worker's id, unique among workers (default: random). "
            "Give each worker a lasting one: started again after being killed, it takes back at once "
            "the task it was running (else another worker does once its lease ends).",
        )
        parser.add_argument(
            "--no-startup-delay",
            action="store_false",
            dest="startup_delay",
            help="Start at once rather than after up to a second (which spreads workers started together).",
        )

    def handle(self, *args, check_every, interval, queue_name, worker_id, startup_delay, verbosity, **opts):
        if check_every <= 0 or interval < 0:
            raise CommandError("--check-every must be more than 0 and --interval 0 or more.")
        if len(worker_id) > 200:
            raise CommandError("--worker-id must be 200 characters or fewer.")
        level = {0: logging.WARNING, 1: logging.INFO}.get(verbosity, logging.DEBUG)
        for name in LOGGERS:
            logging.getLogger(name).setLevel(level)

        stop = threading.Event()
        backend = task_backends[DEFAULT_TASK_BACKEND_ALIAS]
        if not isinstance(backend, DatabaseBackend):
            logger.info("Tasks run as they are enqueued (%s): the schedule only.", type(backend).__name__)
            self.stop_on_signals(stop)
            Scheduler(check_every=check_every, stop=stop).run()
            return

        worker_id = worker_id or get_random_string(32)
        # Held from before the first task is taken; what this id's previous process left running, back.
        leases.renew(worker_id, check_every=check_every)
        leases.reclaim_own(worker_id)

        def beat() -> None:
            leases.renew(worker_id, check_every=check_every)
            leases.reclaim_expired()

        scheduler = Scheduler(check_every=check_every, stop=stop, beat=beat)
        worker = QueueWorker(
            stop=stop,
            queue_names=queue_name.split(","),
            excluded_queue_names=[],
            interval=interval,
            batch=False,
            backend_name=DEFAULT_TASK_BACKEND_ALIAS,
            startup_delay=startup_delay,
            max_tasks=None,
            worker_id=worker_id,
        )
        worker.configure_signals()
        schedule = threading.Thread(target=scheduler.run, name="periodic-schedule")
        schedule.start()
        try:
            worker.run()  # until a signal; the worker ends it with SystemExit
        finally:
            stop.set()
            schedule.join()
            leases.release(worker_id)

    def stop_on_signals(self, stop: threading.Event) -> None:
        """The schedule alone: the first signal stops it after what it is running, the second at once."""

        def shutdown(signum, frame):
            if stop.is_set():
                logger.warning("Received %s again: stopping now.", signal.strsignal(signum))
                sys.exit(1)
            logger.warning("Received %s: stopping after the current task.", signal.strsignal(signum))
            stop.set()

        for name in ("SIGINT", "SIGTERM", "SIGQUIT"):
            if hasattr(signal, name):
                signal.signal(getattr(signal, name), shutdown)
