"""Duplicate deals: tables of a size that played the same deals compared deal by deal
(matchpoints), the comparison as a visitor may read it, and paper tables' deal sheets."""
