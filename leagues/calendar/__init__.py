"""Calendar and mail: a league's nights as a feed calendar apps subscribe to (each member's
own secret address), and the mail about a night (a reminder before, the results after)."""
