"""Results and corrections: a night's scorecards, a paper table's results entered
by an organiser, and a score corrected with its reason, who and when."""
