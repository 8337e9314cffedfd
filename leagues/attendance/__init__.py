"""Who plays a night: the members present, those away (with notice or not, or left over
with a bye), and who stands in for whom; whom each result counts for, and what a night
missed earns."""
