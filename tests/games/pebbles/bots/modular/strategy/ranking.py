"""The indices of the most valuable pebbles."""


def best(values: list[int], count: int) -> list[int]:
    return sorted(range(len(values)), key=lambda i: (-values[i], i))[:count]
