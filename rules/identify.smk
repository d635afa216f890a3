# Identification (issue 48): which bot played this? Every target's held-out matches (the
# validation folds of the split its imitators were trained with, so no model scoring a match
# ever trained on it) are identified among all the targets by the likelihood of their moves
# under each target's imitator (evaluate.imitator.net): top-1 / top-3 accuracy against k
# matches and against the pool's size, with CIs, the open-set threshold, and the confusion.
# Inputs and params: ime.workflow.identify (IDENTIFY); the job: ime.workflow.jobs.identify;
# the method: ime.evaluate.identify and docs/identify.md.

from ime.workflow.identify import IdentifyPlan

IDENTIFY = IdentifyPlan(WF)


rule identify:
    input:
        unpack(lambda wc: WF.checked(IDENTIFY.inputs, wc.rdir)),
    output:
        table=report(P.result("identification.csv"), caption="../report/identification.rst",
                     category="Evaluation", subcategory="Identification"),
        confusion=report(P.result("identification_confusion.csv"),
                         caption="../report/identification_confusion.rst",
                         category="Evaluation", subcategory="Identification"),
        png=report(P.result("figures/identification.png"),
                   caption="../report/identification.rst",
                   category="Evaluation", subcategory="Identification"),
        pdf=P.result("figures/identification.pdf"),
    params:
        spec=lambda wc: WF.checked(IDENTIFY.spec, wc.rdir),
    threads: 1
    resources:
        mem_mb=3000,
        runtime=60,
    log:
        P.result_log("identification"),
    benchmark:
        P.result_benchmark("identification")
    script:
        "../workflow_scripts/identify.py"
