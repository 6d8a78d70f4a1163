#!/usr/bin/env python3
"""Builds games/ac/map.toml: the reconstructed Asia Crossroads square grid.

The printed map is not available (digest 5.3). This lays a 40 x 40 grid of
squares of about 80 km (rule 2.5) over Central Asia with an equirectangular
projection true at 38N: a column is 0.9 degrees of longitude (about 79 km at
38N), a row 0.725 degrees of latitude (about 80 km). Column 1 starts at 50.0E,
row 1 at 53.0N (north up). Terrain, seas, rivers and the 19 native regions are
coarse polygons drawn from the real geography of about 1850 (regions: the
polities of the rulebook's native codes); cities are placed from their real
coordinates. Trade routes are the historical caravan routes between those
cities, laid as the shortest orthogonal chain of land squares (ruling A20:
non-diagonal segments only). Run it again after editing the tables below:

    python3 games/ac/mkmap.py > games/ac/map.toml
"""

from collections import deque

COLS, ROWS = 40, 40
LON0, LAT0, DLON, DLAT = 50.0, 53.0, 0.9, 0.725


def centre(c, r):
    return LON0 + (c - 0.5) * DLON, LAT0 - (r - 0.5) * DLAT


def square(lon, lat):
    return int((lon - LON0) / DLON) + 1, int((LAT0 - lat) / DLAT) + 1


def inside(poly, x, y):
    n, hit = len(poly), False
    for i in range(n):
        x1, y1 = poly[i]
        x2, y2 = poly[(i + 1) % n]
        if (y1 > y) != (y2 > y) and x < (x2 - x1) * (y - y1) / (y2 - y1) + x1:
            hit = not hit
    return hit


SEAS = {
    "Caspian Sea": [(49, 47.3), (53.3, 47.0), (53.5, 45.2), (51.3, 44.2), (51.8, 42.4), (53.0, 41.2),
                    (53.0, 40.3), (53.9, 39.8), (53.6, 38.5), (54.2, 37.0), (49, 36.8)],
    "Aral Sea": [(58.4, 45.6), (59.4, 46.7), (61.6, 46.6), (61.8, 45.1), (60.9, 44.0), (59.0, 43.6)],
    "Persian Gulf": [(49, 30.0), (50.3, 29.6), (50.9, 28.4), (52.4, 27.3), (54.6, 26.6), (56.3, 27.0),
                     (56.9, 25.9), (57.3, 25.3), (57.3, 23.5), (49, 23.5)],
    "Arabian Sea": [(57.3, 25.3), (61.5, 25.05), (64.0, 25.2), (66.4, 25.35), (67.0, 24.6), (67.6, 23.5),
                    (57, 23.5)],
    "Lake Balkhash": [(73.5, 45.2), (74.5, 46.9), (77.0, 46.6), (79.2, 46.3), (79.0, 45.9), (76.5, 45.9),
                      (74.3, 44.9)],
    "Issyk-Kul": [(76.2, 42.4), (76.5, 42.85), (78.3, 42.8), (78.2, 42.3)],
}

MOUNTAINS = [
    [(50.5, 35.8), (56.0, 36.3), (56.0, 37.0), (50.5, 37.0)],                       # Elburz
    [(50.0, 34.5), (51.2, 33.3), (53.2, 30.8), (55.6, 28.3), (57.3, 27.6), (56.6, 29.6), (54.1, 31.6),
     (52.2, 33.6), (50.6, 35.2)],                                                     # Zagros
    [(55.6, 38.6), (59.8, 37.0), (60.4, 36.0), (59.0, 36.6), (55.6, 37.6)],          # Kopet Dag
    [(63.5, 32.9), (67.6, 33.0), (68.5, 34.2), (71.2, 35.3), (72.6, 36.4), (71.4, 37.1), (68.8, 36.1),
     (66.0, 35.3), (63.5, 34.8)],                                                     # Hindu Kush, Hazarajat
    [(70.9, 37.0), (75.5, 36.9), (75.5, 39.6), (72.0, 39.6), (70.9, 38.4)],          # Pamirs
    [(72.4, 35.6), (77.0, 36.4), (80.2, 35.8), (81.2, 32.2), (84.0, 29.5), (86.2, 28.3), (86.2, 27.9),
     (84.0, 28.2), (80.6, 29.6), (77.6, 31.2), (75.2, 32.9), (73.2, 33.9)],          # Karakoram, Himalaya
    [(78.0, 29.5), (88.0, 29.0), (88.0, 36.6), (76.0, 37.2), (76.0, 35.5)],          # Tibet, Kunlun
    [(69.0, 41.4), (73.0, 42.4), (80.0, 42.6), (86.0, 43.4), (88.0, 43.5), (88.0, 42.4), (80.5, 41.6),
     (76.2, 40.4), (73.4, 40.1), (70.5, 40.6)],                                       # Tian Shan
    [(69.0, 28.8), (70.4, 29.0), (70.8, 32.4), (70.2, 33.6), (69.3, 33.1), (68.6, 30.5)],  # Sulaiman
    [(66.2, 26.0), (67.4, 26.0), (67.9, 28.6), (67.0, 30.6), (66.2, 29.8)],          # Kirthar, Brahui hills
]

DESERTS = [
    [(54.5, 37.8), (60.5, 37.6), (63.5, 38.6), (62.0, 40.6), (59.2, 41.4), (55.0, 41.0)],  # Karakum
    [(61.6, 41.0), (64.0, 39.9), (67.0, 40.6), (66.5, 44.0), (61.8, 43.8)],          # Kyzylkum
    [(53.5, 41.3), (58.6, 41.5), (58.3, 45.3), (54.0, 45.3)],                        # Ustyurt
    [(67.5, 44.0), (73.5, 44.2), (73.5, 46.5), (68.0, 46.5)],                        # Betpak-Dala
    [(52.8, 34.8), (56.2, 30.2), (59.5, 30.0), (59.5, 34.0), (55.0, 35.3)],          # Dasht-e Kavir, Lut
    [(61.8, 29.3), (66.0, 29.4), (66.0, 31.6), (62.0, 31.7)],                        # Registan, Margo
    [(69.6, 24.2), (73.4, 24.4), (73.6, 28.6), (70.5, 28.7)],                        # Thar
    [(77.5, 37.4), (88.0, 37.3), (88.0, 41.0), (82.0, 41.2), (78.0, 40.0)],          # Taklamakan
    [(57.5, 25.6), (66.0, 25.6), (66.0, 27.0), (58.0, 27.3)],                        # Makran
    [(51.0, 44.0), (53.3, 45.0), (56.0, 45.6), (56.0, 46.3), (52.0, 46.3)],          # north Caspian lowland
]

# Native regions: first match wins. One character per region on the map.
REGIONS = [
    ("NP", "n", [(80.2, 28.9), (81.0, 30.3), (86.1, 28.0), (86.1, 26.9), (83.5, 27.2), (80.0, 28.0)]),
    ("WT", "t", [(78.4, 30.0), (81.0, 30.3), (86.1, 28.0), (88, 28), (88, 35.6), (78.0, 35.6), (78.0, 31.8)]),
    ("KS", "k", [(73.3, 32.3), (75.5, 32.3), (78.4, 31.2), (78.0, 35.6), (75.5, 36.2), (73.4, 35.2)]),
    ("PA", "p", [(70.6, 35.3), (73.4, 35.2), (75.5, 36.2), (75.5, 39.4), (72.0, 39.4), (69.9, 37.7)]),
    ("SN", "s", [(66.5, 24.0), (71.0, 24.0), (70.6, 28.8), (68.8, 28.8), (67.2, 27.8), (66.5, 25.4)]),
    ("PJ", "j", [(69.9, 28.8), (74.0, 29.2), (76.8, 30.6), (75.5, 32.3), (73.3, 32.3), (73.4, 35.2),
                 (70.6, 35.3), (70.9, 33.6), (70.3, 31.0)]),
    ("NI", "i", [(71.0, 24.0), (86.1, 24.0), (86.1, 26.9), (83.5, 27.2), (80.0, 28.0), (80.2, 28.9), (78.4, 30.0),
                 (78.0, 31.8), (76.8, 30.6), (74.0, 29.2), (70.6, 28.8)]),
    ("BL", "b", [(60.8, 24.0), (66.5, 24.0), (66.5, 25.4), (67.2, 27.8), (68.8, 28.8), (69.9, 28.8),
                 (69.3, 31.2), (66.0, 30.4), (62.5, 29.6), (60.8, 29.6)]),
    ("HE", "h", [(60.6, 32.0), (63.4, 32.0), (64.4, 33.5), (64.0, 35.6), (61.2, 35.6), (60.6, 34.6)]),
    ("AF", "a", [(62.5, 29.6), (66.0, 30.4), (69.3, 31.2), (70.3, 31.0), (70.9, 33.6), (70.6, 35.3),
                 (69.9, 37.7), (66.0, 37.4), (64.8, 37.1), (64.0, 35.6), (64.4, 33.5), (63.4, 32.0),
                 (60.6, 32.0), (60.8, 29.6)]),
    ("PE", "e", [(49, 24.0), (60.8, 24.0), (60.8, 29.6), (60.6, 32.0), (60.6, 34.6), (61.2, 35.6),
                 (61.0, 36.8), (59.0, 37.5), (54.2, 37.4), (49, 37.2)]),
    ("MV", "m", [(59.0, 37.5), (61.0, 36.8), (61.2, 35.6), (64.0, 35.6), (64.8, 37.1), (63.8, 38.6),
                 (62.0, 38.8), (60.5, 38.2)]),
    ("TK", "u", [(52.9, 37.2), (59.0, 37.5), (60.5, 38.2), (62.0, 38.8), (61.2, 40.6), (57.5, 41.3),
                 (53.0, 41.3)]),
    ("KV", "v", [(57.5, 41.3), (61.2, 40.6), (62.0, 41.6), (61.6, 43.8), (59.0, 44.2), (57.8, 43.4)]),
    ("BU", "z", [(62.0, 38.8), (63.8, 38.6), (64.8, 37.1), (66.0, 37.4), (68.3, 37.3), (68.6, 39.6),
                 (67.8, 40.6), (66.6, 41.2), (62.0, 41.6), (61.2, 40.6)]),
    ("SK", "c", [(73.3, 39.4), (75.5, 39.4), (75.5, 36.2), (78.0, 35.6), (88, 35.6), (88, 47.0),
                 (82.5, 47.0), (80.0, 44.8), (78.5, 42.8), (75.8, 41.0)]),
    ("KK", "o", [(66.6, 41.2), (67.8, 40.6), (68.6, 39.6), (72.0, 39.4), (73.3, 39.4), (75.8, 41.0),
                 (78.5, 42.8), (76.0, 43.8), (71.5, 44.2), (67.5, 44.3), (66.5, 43.0)]),
    ("WS", "w", [(49, 53.5), (90, 53.5), (90, 47.0), (82.5, 47.0), (80.5, 48.4), (73.6, 48.4),
                 (73.6, 50.7), (54.0, 50.7), (53.6, 46.3), (49, 46.3)]),
    ("KZ", "q", [(49, 47.2), (53.6, 46.3), (54.0, 50.7), (73.6, 50.7), (73.6, 48.4), (80.5, 48.4),
                 (82.5, 47.0), (80.0, 44.8), (78.5, 42.8), (76.0, 43.8), (71.5, 44.2), (67.5, 44.3),
                 (66.5, 43.0), (62.0, 41.6), (61.6, 43.8), (59.0, 44.2), (57.8, 43.4), (57.5, 41.3),
                 (53.0, 41.3), (49, 41.3)]),
]

# name, lon, lat, region, capital, port, income (stand-in unless a rulebook value)
CITIES = [
    ("Orenburg", 55.10, 51.77, "WS", True, False, 3),
    ("Orsk", 58.57, 51.21, "WS", False, False, 1),
    ("Uralsk", 51.37, 51.23, "WS", False, False, 1),
    ("Gur'ev", 51.88, 47.11, "WS", False, True, 1),
    ("Akmolinsk", 71.43, 51.17, "WS", False, False, 1),
    ("Karkaralinsk", 75.47, 49.41, "WS", False, False, 1),
    ("Semipalatinsk", 80.23, 50.41, "WS", False, False, 2),
    ("Turgai", 63.50, 49.63, "KZ", True, False, 1),
    ("Irgiz", 61.26, 48.62, "KZ", False, False, 1),
    ("Kazalinsk", 62.10, 45.76, "KZ", False, False, 1),
    ("Kopal", 79.08, 45.02, "KZ", False, False, 1),
    ("Khiva", 60.36, 41.38, "KV", True, False, 2),
    ("Kunya-Urgench", 59.15, 42.33, "KV", False, False, 1),
    ("Hazarasp", 61.07, 41.32, "KV", False, False, 1),
    ("Krasnovodsk", 52.97, 40.02, "TK", False, True, 1),
    ("Geok Tepe", 57.97, 38.15, "TK", True, False, 1),
    ("Merv", 61.83, 37.60, "MV", True, False, 2),
    ("Sarakhs", 61.16, 36.53, "MV", False, False, 1),
    ("Bukhara", 64.42, 39.77, "BU", True, False, 3),
    ("Samarkand", 66.96, 39.65, "BU", False, False, 2),
    ("Karshi", 65.80, 38.86, "BU", False, False, 1),
    ("Khokand", 70.94, 40.53, "KK", True, False, 2),
    ("Tashkent", 69.27, 41.30, "KK", False, False, 2),
    ("Turkestan", 68.25, 43.30, "KK", False, False, 1),
    ("Andijan", 72.34, 40.78, "KK", False, False, 1),
    ("Kabul", 69.17, 34.53, "AF", True, False, 3),
    ("Kandahar", 65.71, 31.61, "AF", False, False, 2),
    ("Ghazni", 68.42, 33.55, "AF", False, False, 1),
    ("Jalalabad", 70.45, 34.43, "AF", False, False, 1),
    ("Balkh", 66.90, 36.76, "AF", False, False, 1),
    ("Herat", 62.20, 34.35, "HE", True, False, 3),
    ("Teheran", 51.39, 35.69, "PE", True, False, 3),
    ("Meshed", 59.60, 36.30, "PE", False, False, 2),
    ("Isfahan", 51.67, 32.65, "PE", False, False, 2),
    ("Shiraz", 52.53, 29.61, "PE", False, False, 1),
    ("Bushire", 50.84, 28.97, "PE", False, True, 2),
    ("Kerman", 57.08, 30.28, "PE", False, False, 1),
    ("Kalat", 66.59, 29.03, "BL", True, False, 1),
    ("Quetta", 67.01, 30.18, "BL", False, False, 1),
    ("Gwadar", 62.33, 25.13, "BL", False, True, 1),
    ("Hyderabad", 68.37, 25.40, "SN", True, False, 2),
    ("Karachi", 67.01, 24.86, "SN", False, True, 2),
    ("Shikarpur", 68.64, 27.95, "SN", False, False, 1),
    ("Lahore", 74.34, 31.55, "PJ", True, False, 3),
    ("Multan", 71.47, 30.20, "PJ", False, False, 2),
    ("Peshawar", 71.57, 34.01, "PJ", False, False, 2),
    ("Rawalpindi", 73.05, 33.60, "PJ", False, False, 1),
    ("Srinigar", 74.80, 34.08, "KS", True, False, 2),
    ("Leh", 77.58, 34.16, "KS", False, False, 1),
    ("Chitral", 71.78, 35.85, "PA", True, False, 1),
    ("Gilgit", 74.31, 35.92, "PA", False, False, 1),
    ("Faizabad", 70.58, 37.12, "PA", False, False, 1),
    ("Gartok", 80.35, 31.73, "WT", True, False, 1),
    ("Katmandu", 85.32, 27.70, "NP", True, False, 2),
    ("Delhi", 77.22, 28.65, "NI", True, False, 3),
    ("Agra", 78.01, 27.18, "NI", False, False, 3),
    ("Jodhpur", 73.02, 26.29, "NI", False, False, 2),
    ("Lucknow", 80.95, 26.85, "NI", False, False, 3),
    ("Simla", 77.17, 31.10, "NI", False, False, 1),
    ("Kashgar", 75.99, 39.47, "SK", True, False, 2),
    ("Yarkand", 77.24, 38.42, "SK", False, False, 2),
    ("Khotan", 79.93, 37.11, "SK", False, False, 1),
    ("Aksu", 80.26, 41.17, "SK", False, False, 1),
    ("Kulja", 81.32, 43.91, "SK", False, False, 1),
    ("Kucha", 82.96, 41.72, "SK", False, False, 1),
]

# River courses as (lon, lat) polylines; every square they pass is a river square.
RIVERS = {
    "Amu Darya": [(71.5, 37.3), (67.8, 37.2), (65.5, 37.7), (63.5, 39.0), (61.5, 41.0), (60.0, 42.6), (59.6, 43.6)],
    "Syr Darya": [(72.3, 40.8), (69.0, 40.9), (68.2, 42.3), (66.5, 43.7), (65.5, 44.8), (62.3, 46.0)],
    "Indus": [(77.6, 34.2), (74.6, 35.5), (72.4, 34.2), (71.3, 32.9), (71.0, 31.0), (70.4, 29.0), (68.6, 27.4),
              (68.3, 25.4), (67.6, 24.1)],
    "Ural": [(58.6, 51.2), (55.1, 51.8), (51.4, 51.2), (51.6, 49.2), (51.9, 47.2)],
    "Ganges": [(78.2, 29.9), (80.3, 26.5), (83.0, 25.3), (86.0, 25.2)],
    "Yamuna": [(77.6, 30.3), (77.22, 28.65), (78.0, 27.18), (80.0, 25.8)],
    "Irtysh": [(84.5, 48.2), (82.5, 49.8), (80.2, 50.4), (78.2, 51.8), (76.9, 52.9)],
    "Tarim": [(76.0, 39.5), (79.5, 40.5), (84.0, 41.0), (87.5, 40.6)],
    "Helmand": [(68.0, 34.4), (65.5, 32.0), (63.8, 31.0), (61.8, 31.0)],
}

# Historical caravan routes between cities (digest 4.2(3); routes into the home
# bases run off the edge squares named here, rule 19.1).
ROUTES = [
    ("Orenburg line", ["Uralsk", "Orenburg", "Orsk"]),
    ("Ural river road", ["Uralsk", "Gur'ev"]),
    ("Orenburg-Tashkent caravan road", ["Orsk", "Irgiz", "Kazalinsk", "Turkestan", "Tashkent"]),
    ("Orenburg-Khiva caravan road", ["Irgiz", "Kunya-Urgench", "Khiva"]),
    ("Siberian line", ["Akmolinsk", "Karkaralinsk", "Semipalatinsk"]),
    ("Semirechye road", ["Semipalatinsk", "Kopal", "Kulja"]),
    ("Steppe road", ["Orsk", "Turgai", "Akmolinsk"]),
    ("Khiva-Bukhara road", ["Khiva", "Hazarasp", "Bukhara"]),
    ("Royal road", ["Bukhara", "Samarkand", "Tashkent", "Khokand", "Andijan", "Kashgar"]),
    ("Bukhara-Kabul road", ["Bukhara", "Karshi", "Balkh", "Kabul"]),
    ("Merv road", ["Bukhara", "Merv", "Sarakhs", "Meshed", "Teheran"]),
    ("Herat road", ["Merv", "Herat", "Kandahar", "Quetta", "Shikarpur", "Hyderabad", "Karachi"]),
    ("Meshed-Herat road", ["Meshed", "Herat"]),
    ("Atrek road", ["Krasnovodsk", "Geok Tepe", "Meshed"]),
    ("Khyber road", ["Kandahar", "Ghazni", "Kabul", "Jalalabad", "Peshawar", "Rawalpindi", "Lahore"]),
    ("Grand Trunk Road", ["Lahore", "Delhi", "Agra", "Lucknow"]),
    ("Indus road", ["Lahore", "Multan", "Shikarpur"]),
    ("Bolan pass", ["Kalat", "Quetta"]),
    ("Rajputana road", ["Hyderabad", "Jodhpur", "Delhi"]),
    ("Hill road", ["Delhi", "Simla", "Gartok"]),
    ("Persian royal road", ["Teheran", "Isfahan", "Shiraz", "Bushire"]),
    ("Kerman road", ["Isfahan", "Kerman"]),
    ("Kashmir road", ["Rawalpindi", "Srinigar", "Leh", "Yarkand"]),
    ("Gilgit road", ["Peshawar", "Chitral", "Gilgit", "Srinigar"]),
    ("Badakhshan road", ["Balkh", "Faizabad", "Chitral"]),
    ("Southern Silk Road", ["Kashgar", "Yarkand", "Khotan"]),
    ("Northern Silk Road", ["Kashgar", "Aksu", "Kucha"]),
    ("Muzart pass", ["Aksu", "Kulja"]),
    ("Nepal road", ["Lucknow", "Katmandu"]),
    ("Makran coast", ["Gwadar", "Kalat"]),
]
# Routes off the map edge into a home base (19.1): city, base, direction.
BASE_ROUTES = [("Orenburg", "urals", "north"), ("Uralsk", "urals", "west"),
               ("Agra", "india", "south"), ("Jodhpur", "india", "south"), ("Lucknow", "india", "south")]

# Historical railways of the period (reference data: railroads are built by the
# players, rule 20.34; these are the lines the empires really built).
RAILWAYS = [
    ("Trans-Caspian Railway 1880-1888", ["Krasnovodsk", "Geok Tepe", "Merv", "Bukhara", "Samarkand"]),
    ("Samarkand-Tashkent 1899", ["Samarkand", "Tashkent"]),
    ("Orenburg-Tashkent 1906 (after the game)", ["Orenburg", "Orsk", "Irgiz", "Kazalinsk", "Turkestan", "Tashkent"]),
    ("Scinde, Punjab and Delhi Railway 1861-1878", ["Karachi", "Hyderabad", "Multan", "Lahore", "Delhi"]),
    ("East Indian Railway 1866", ["Delhi", "Agra", "Lucknow"]),
    ("Punjab Northern State Railway 1883", ["Lahore", "Rawalpindi", "Peshawar"]),
    ("Sind-Pishin Railway 1887", ["Shikarpur", "Quetta"]),
]


def build():
    terrain = [["." for _ in range(COLS)] for _ in range(ROWS)]
    region = [["." for _ in range(COLS)] for _ in range(ROWS)]
    for r in range(1, ROWS + 1):
        for c in range(1, COLS + 1):
            x, y = centre(c, r)
            t = "."
            if any(inside(p, x, y) for p in DESERTS):
                t = "d"
            if any(inside(p, x, y) for p in MOUNTAINS):
                t = "M"
            if any(inside(p, x, y) for p in SEAS.values()):
                t = "~"
            terrain[r - 1][c - 1] = t
            if t != "~":
                for code, ch, poly in REGIONS:
                    if inside(poly, x, y):
                        region[r - 1][c - 1] = ch
                        break
    cities = []
    seen = {}
    for name, lon, lat, reg, cap, port, inc in CITIES:
        c, r = square(lon, lat)
        key = (c, r)
        assert key not in seen, f"{name} shares square with {seen[key]}"
        seen[key] = name
        if terrain[r - 1][c - 1] == "~":
            terrain[r - 1][c - 1] = "."
        ch = next(ch for code, ch, _ in REGIONS if code == reg)
        region[r - 1][c - 1] = ch
        cities.append((name, c, r, reg, cap, port, inc))
    # Every land square belongs to some region.
    for r in range(ROWS):
        for c in range(COLS):
            if terrain[r][c] != "~" and region[r][c] == ".":
                # nearest assigned neighbour
                for dc, dr in [(0, -1), (-1, 0), (1, 0), (0, 1), (-1, -1), (1, 1), (1, -1), (-1, 1)]:
                    cc, rr = c + dc, r + dr
                    if 0 <= cc < COLS and 0 <= rr < ROWS and region[rr][cc] != ".":
                        region[r][c] = region[rr][cc]
                        break
                assert region[r][c] != ".", (c + 1, r + 1)
    rivers = set()
    for name, pts in RIVERS.items():
        for (x1, y1), (x2, y2) in zip(pts, pts[1:]):
            n = 40
            for i in range(n + 1):
                c, r = square(x1 + (x2 - x1) * i / n, y1 + (y2 - y1) * i / n)
                if 1 <= c <= COLS and 1 <= r <= ROWS and terrain[r - 1][c - 1] != "~":
                    rivers.add((c, r))
    pos = {n: (c, r) for n, c, r, *_ in cities}

    def path(a, b):
        start, goal = pos[a], pos[b]
        prev = {start: None}
        q = deque([start])
        while q:
            cur = q.popleft()
            if cur == goal:
                break
            c, r = cur
            # prefer the axis with the larger remaining distance (straighter routes)
            dirs = [(1, 0), (-1, 0), (0, 1), (0, -1)]
            dirs.sort(key=lambda d: abs(goal[0] - (c + d[0])) + abs(goal[1] - (r + d[1])))
            for dc, dr in dirs:
                n = (c + dc, r + dr)
                if 1 <= n[0] <= COLS and 1 <= n[1] <= ROWS and n not in prev \
                        and terrain[n[1] - 1][n[0] - 1] != "~":
                    prev[n] = cur
                    q.append(n)
        out = []
        cur = goal
        while cur is not None:
            out.append(cur)
            cur = prev[cur]
        return out[::-1]

    routes = []
    for name, stops in ROUTES:
        sq = [pos[stops[0]]]
        for a, b in zip(stops, stops[1:]):
            sq += path(a, b)[1:]
        routes.append((name, sq, None))
    for city, base, d in BASE_ROUTES:
        c, r = pos[city]
        sq = [(c, r)]
        if d == "north":
            sq += [(c, rr) for rr in range(r - 1, 0, -1)]
        elif d == "south":
            sq += [(c, rr) for rr in range(r + 1, ROWS + 1)]
        else:
            sq += [(cc, r) for cc in range(c - 1, 0, -1)]
        for (cc, rr) in sq:
            assert terrain[rr - 1][cc - 1] != "~", (city, cc, rr)
        routes.append((f"{city} to the {'Urals' if base == 'urals' else 'Central India'} home base", sq, base))
    rails = []
    for name, stops in RAILWAYS:
        sq = [pos[stops[0]]]
        for a, b in zip(stops, stops[1:]):
            sq += path(a, b)[1:]
        rails.append((name, sq))
    return terrain, region, cities, rivers, routes, rails


def label(c, r):
    return f"{c:02d}{r:02d}"


def main():
    terrain, region, cities, rivers, routes, rails = build()
    river_rows = ["".join("r" if (c, r) in rivers else "." for c in range(1, COLS + 1)) for r in range(1, ROWS + 1)]
    p = print
    p("# Asia Crossroads: the map, a RECONSTRUCTION (the printed map is not available).")
    p("# Generated by games/ac/mkmap.py; edit the tables there and run it again.")
    p("#")
    p("# A 40 x 40 grid of squares of about 80 km (rule 2.5), equirectangular, true at")
    p("# 38N: column 1 starts at 50.0E, each column 0.9 degrees of longitude; row 1")
    p("# starts at 53.0N, each row 0.725 degrees of latitude; north up. Labels are CCRR")
    p("# (column, row, from 01 at the top left). Terrain: `.` clear, `d` desert,")
    p("# `M` mountain, `~` all sea/lake. Regions: one character per native region,")
    p("# keyed in [map.region_key]. Every value has a provenance tag: `rulebook <rule>`,")
    p("# `public <source>`, `reconstructed <how>` or `stand-in <why>`.")
    p()
    p("[map]")
    p(f"cols = {COLS}")
    p(f"rows = {ROWS}")
    p('src = "reconstructed: 40 x 40 squares of about 80 km (rule 2.5) over 50.0E-86.0E, 24.0N-53.0N, equirectangular true at 38N"')
    p('src_terrain = "reconstructed: real geography (Caspian, Aral, Gulf, Arabian Sea, Balkhash, Issyk-Kul; Elburz, Zagros, Kopet Dag, Hindu Kush, Pamirs, Karakoram-Himalaya, Tibet, Tian Shan, Sulaiman, Kirthar; Karakum, Kyzylkum, Ustyurt, Betpak-Dala, Kavir-Lut, Registan, Thar, Taklamakan, Makran) as coarse polygons, see mkmap.py"')
    p('src_regions = "reconstructed: the 19 native regions of the rulebook (26.0 Native Unit Abbreviations) drawn as the polities of about 1850; borders run along square sides (2.13)"')
    p('src_rivers = "reconstructed: courses of the Amu Darya, Syr Darya, Indus, Ural, Ganges, Yamuna, Irtysh, Tarim and Helmand"')
    p("terrain = [")
    for r in range(ROWS):
        p(f'  "{"".join(terrain[r])}",  # {r + 1:02d}')
    p("]")
    p("regions = [")
    for r in range(ROWS):
        p(f'  "{"".join(region[r])}",  # {r + 1:02d}')
    p("]")
    p("rivers = [")
    for r in range(ROWS):
        p(f'  "{river_rows[r]}",  # {r + 1:02d}')
    p("]")
    p()
    p("[map.region_key]")
    for code, ch, _ in REGIONS:
        p(f'{ch} = "{code}"')
    p('src = "reconstructed: one map character per region code"')
    p()
    for name, c, r, reg, cap, port, inc in cities:
        named = name in ("Kabul", "Herat", "Khiva", "Chitral", "Srinigar", "Gartok", "Katmandu", "Delhi", "Agra",
                         "Jodhpur", "Lucknow", "Simla", "Teheran", "Bushire", "Karachi", "Orenburg", "Gur'ev",
                         "Karkaralinsk", "Semipalatinsk")
        p("[[city]]")
        p(f'name = "{name}"')
        p(f'square = "{label(c, r)}"')
        p(f'region = "{reg}"')
        if cap:
            p("capital = true")
        if port:
            p("port = true")
        p(f"income = {inc}")
        where = "named in the rulebook (26.0 set-ups, errata 2.81)" if named else "a historical city of the region"
        p(f'src = "reconstructed: {where}; square from its real coordinates"')
        if name in ("Khiva", "Chitral"):
            p('src_capital = "rulebook 2.81 errata"')
        elif cap:
            p('src_capital = "reconstructed: the seat of the region\'s ruler about 1850 (digest 5.3)"')
        if reg in ("NI", "PJ", "SN") and inc == 3:
            p('src_income = "rulebook errata (Income Chart clarification): cities in India, Punjab and Sind on trade routes receive 3 pounds"')
        else:
            p('src_income = "stand-in: the Income Chart is missing (digest 5.7(3)); 1-3 pounds by the city\'s size about 1850"')
        p()
    for name, sq, base in routes:
        p("[[route]]")
        p(f'name = "{name}"')
        p("squares = [" + ", ".join(f'"{label(c, r)}"' for c, r in sq) + "]")
        if base:
            p(f'base = "{base}"')
        p('src = "reconstructed: historical caravan route laid as orthogonal square chains (digest 4.2(3), ruling A20)"')
        if base:
            p('src_base = "rulebook 19.1: home bases have trade routes leading off the map edge"')
        p()
    for name, sq in rails:
        p("[[railway]]")
        p(f'name = "{name}"')
        p("squares = [" + ", ".join(f'"{label(c, r)}"' for c, r in sq) + "]")
        p('src = "public: the historical line (reference only: players build railroads, rule 20.34)"')
        p()


if __name__ == "__main__":
    main()
