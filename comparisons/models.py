# Comparisons arrive with their own issue; the app exists so URLs and settings have a home.
