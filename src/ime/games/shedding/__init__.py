"""What Big-2 and Doudizhu share: both are climbing (shedding) card games whose rules see only
ranks, so Big-2 was built on Doudizhu's engine. This package registers no game; each game keeps
its domain names (``HandType`` / ``Combo``, ``legal_types`` / ``legal_combos``) and gives these
modules what differs (its rank layout, its hand-type class and classifier, its judge):

* :mod:`.cards`: rank text and canonical card ids of a deck (:class:`~.cards.RankLayout`).
* :mod:`.deals`: the checks shared by the games' ``initdata`` parsers.
* :mod:`.judge`: the judge's error names and :class:`~.judge.PlayError`.
* :mod:`.codec`: a bot's JSON response, read and written.
* :mod:`.state`: the engine state (hands, plays, judge, display) and its legal plays.
* :mod:`.bots`: the random and smallest-first baseline bots.
* :mod:`.positions`: seeded mid-game positions and the ``legal_actions`` benchmark.
* :mod:`.combinations`: the compiled move generators' kicker-set walk.

Left in each game on purpose, because the rules differ there: the order of the judge's checks
and its messages (``rules.check_play``), the scores, the move generators, the requests and seat
inference (two seats or three), and the stand-alone ``bench_bot.py`` programs (stdlib only: they
run without IME, as a Botzone upload would). The kicker-step action heads both games' nets use
are in :mod:`ime.games.kickers`.
"""
