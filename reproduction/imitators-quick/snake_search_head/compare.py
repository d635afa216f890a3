"""Print the before/after table of this folder's README.md from
the two archives' imitators.csv (run from the repository root)."""
import csv
import sys

def rows(path):
    with open(path, newline="") as fh:
        return {(r["family"], r["bot"]): r for r in csv.DictReader(fh)}

before = rows("reproduction/imitators-quick/snake_search/imitators.csv")
after = rows("reproduction/imitators-quick/snake_search_head/imitators.csv")
bots = sorted({b for f, b in after if f == "search"})
print("| bot | search, unseen: before | now | CONV-1, unseen: before (four planes) | now (head plane) | ceiling (now) | held-out S1 now (before) | S2 now (before) | goal met now | fit s a fold now | ms a decision now |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
for b in bots:
    s0, s1 = before.get(("search", b), {}), after[("search", b)]
    c0, c1 = before.get(("policy", b), {}), after.get(("policy", b), {})
    def g(r, k):
        v = r.get(k, "")
        return v if v != "" else "-"
    print(f"| {b} | {g(s0, 'val_acc_unseen')} | **{g(s1, 'val_acc_unseen')}** | {g(c0, 'val_acc_unseen')} | {g(c1, 'val_acc_unseen')} | {g(s1, 'ceiling')} | {g(s1, 'S1_heldout')} ({g(s0, 'S1_heldout')}) | {g(s1, 'S2_heldout')} ({g(s0, 'S2_heldout')}) | {g(s1, 'goal_met')} | {g(s1, 'fit_s_mean')} | {g(s1, 'ms_per_decision')} |")
