"""One log line for each task that finishes, whichever backend ran it: INFO when it succeeded,
ERROR when it failed, naming the task and its exception. The traceback follows at DEBUG (and the
database backend keeps it with the task's result); Django's own logger for tasks is quietened in
settings so that a failure is not also logged with its whole traceback."""

import logging

from django.dispatch import receiver
from django.tasks.base import TaskResultStatus
from django.tasks.signals import task_finished

logger = logging.getLogger(__name__)


@receiver(task_finished, dispatch_uid="infra.tasklog")
def log_task_finished(sender, task_result, **kwargs):
    path = task_result.task.module_path
    took = ""
    if task_result.started_at and task_result.finished_at:
        took = f" in {(task_result.finished_at - task_result.started_at).total_seconds():.1f} s"
    if task_result.status != TaskResultStatus.FAILED:
        logger.info("Task %s id=%s succeeded%s", path, task_result.id, took)
        return
    error = task_result.errors[-1] if task_result.errors else None
    lines = error.traceback.strip().splitlines() if error and error.traceback else []
    said = lines[-1] if lines else (error.exception_class_path if error else "no error recorded")
    logger.error("Task %s id=%s failed%s: %s", path, task_result.id, took, said)
    if error:
        logger.debug("Task %s id=%s traceback:\n%s", path, task_result.id, error.traceback)
