"""Public leagues: an organiser opens a league's results to anyone, who reads them read
only, without an account."""
