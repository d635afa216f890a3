"""What each Snakemake job does, one module per stage; ``workflow_scripts/<rule>.py`` is one call.

Every job gets the ``snakemake`` object of its script: inputs and outputs are the rule's (patterns
of :mod:`ime.workflow.paths`), ``params.spec`` holds plain values made by the workflow index, and
:func:`ime.workflow.jobs.logging.job_logging` sends everything it prints to the rule's log file.
"""
