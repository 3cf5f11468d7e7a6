"""Cities teams play in, per region: (city, state or region, ISO nation, latitude, longitude)."""
from __future__ import annotations

City = tuple[str, str, str, float, float]

US: tuple[City, ...] = (
    ("New York", "NY", "US", 40.71, -74.01), ("Boston", "MA", "US", 42.36, -71.06),
    ("Philadelphia", "PA", "US", 39.95, -75.17), ("Baltimore", "MD", "US", 39.29, -76.61),
    ("Washington", "DC", "US", 38.91, -77.04), ("Atlanta", "GA", "US", 33.75, -84.39),
    ("Miami", "FL", "US", 25.76, -80.19), ("Tampa", "FL", "US", 27.95, -82.46),
    ("Orlando", "FL", "US", 28.54, -81.38), ("Charlotte", "NC", "US", 35.23, -80.84),
    ("Raleigh", "NC", "US", 35.78, -78.64), ("Nashville", "TN", "US", 36.16, -86.78),
    ("Memphis", "TN", "US", 35.15, -90.05), ("New Orleans", "LA", "US", 29.95, -90.07),
    ("Houston", "TX", "US", 29.76, -95.37), ("Dallas", "TX", "US", 32.78, -96.80),
    ("San Antonio", "TX", "US", 29.42, -98.49), ("Austin", "TX", "US", 30.27, -97.74),
    ("Oklahoma City", "OK", "US", 35.47, -97.52), ("Kansas City", "MO", "US", 39.10, -94.58),
    ("St. Louis", "MO", "US", 38.63, -90.20), ("Chicago", "IL", "US", 41.88, -87.63),
    ("Milwaukee", "WI", "US", 43.04, -87.91), ("Minneapolis", "MN", "US", 44.98, -93.27),
    ("Detroit", "MI", "US", 42.33, -83.05), ("Cleveland", "OH", "US", 41.50, -81.69),
    ("Cincinnati", "OH", "US", 39.10, -84.51), ("Columbus", "OH", "US", 39.96, -83.00),
    ("Pittsburgh", "PA", "US", 40.44, -79.99), ("Indianapolis", "IN", "US", 39.77, -86.16),
    ("Denver", "CO", "US", 39.74, -104.99), ("Salt Lake City", "UT", "US", 40.76, -111.89),
    ("Phoenix", "AZ", "US", 33.45, -112.07), ("Las Vegas", "NV", "US", 36.17, -115.14),
    ("Los Angeles", "CA", "US", 34.05, -118.24), ("San Diego", "CA", "US", 32.72, -117.16),
    ("San Francisco", "CA", "US", 37.77, -122.42), ("Sacramento", "CA", "US", 38.58, -121.49),
    ("Portland", "OR", "US", 45.52, -122.68), ("Seattle", "WA", "US", 47.61, -122.33),
    ("Buffalo", "NY", "US", 42.89, -78.88), ("Louisville", "KY", "US", 38.25, -85.76),
    ("Omaha", "NE", "US", 41.26, -95.93), ("Albuquerque", "NM", "US", 35.08, -106.65),
    ("Tulsa", "OK", "US", 36.15, -95.99), ("Boise", "ID", "US", 43.62, -116.21),
    ("Spokane", "WA", "US", 47.66, -117.43), ("Richmond", "VA", "US", 37.54, -77.44),
    ("Durham", "NC", "US", 35.99, -78.90), ("Knoxville", "TN", "US", 35.96, -83.92),
    ("Lexington", "KY", "US", 38.04, -84.50), ("Des Moines", "IA", "US", 41.59, -93.62),
    ("Lincoln", "NE", "US", 40.81, -96.70), ("Madison", "WI", "US", 43.07, -89.40),
    ("Ann Arbor", "MI", "US", 42.28, -83.74), ("Syracuse", "NY", "US", 43.05, -76.15),
    ("Providence", "RI", "US", 41.82, -71.41), ("Hartford", "CT", "US", 41.76, -72.67),
    ("Toledo", "OH", "US", 41.65, -83.54), ("Akron", "OH", "US", 41.08, -81.52),
    ("Fresno", "CA", "US", 36.74, -119.79), ("Tucson", "AZ", "US", 32.22, -110.97),
    ("El Paso", "TX", "US", 31.76, -106.49), ("Wichita", "KS", "US", 37.69, -97.34),
    ("Little Rock", "AR", "US", 34.75, -92.29), ("Birmingham", "AL", "US", 33.52, -86.80),
    ("Jacksonville", "FL", "US", 30.33, -81.66), ("Savannah", "GA", "US", 32.08, -81.09),
    ("Greenville", "SC", "US", 34.85, -82.40), ("Durango", "CO", "US", 37.28, -107.88),
)
CANADA: tuple[City, ...] = (
    ("Toronto", "ON", "CA", 43.65, -79.38), ("Montréal", "QC", "CA", 45.50, -73.57),
    ("Vancouver", "BC", "CA", 49.28, -123.12), ("Calgary", "AB", "CA", 51.05, -114.07),
    ("Edmonton", "AB", "CA", 53.55, -113.49), ("Winnipeg", "MB", "CA", 49.90, -97.14),
    ("Ottawa", "ON", "CA", 45.42, -75.70), ("Québec", "QC", "CA", 46.81, -71.21),
)
KOREA: tuple[City, ...] = (
    ("서울", "Seoul", "KR", 37.57, 126.98), ("부산", "Busan", "KR", 35.18, 129.08),
    ("대구", "Daegu", "KR", 35.87, 128.60), ("인천", "Incheon", "KR", 37.46, 126.71),
    ("광주", "Gwangju", "KR", 35.16, 126.85), ("대전", "Daejeon", "KR", 36.35, 127.38),
    ("수원", "Gyeonggi", "KR", 37.26, 127.03), ("창원", "Gyeongnam", "KR", 35.23, 128.68),
    ("울산", "Ulsan", "KR", 35.54, 129.31), ("청주", "Chungbuk", "KR", 36.64, 127.49),
)
JAPAN: tuple[City, ...] = (
    ("Tōkyō", "Tōkyō", "JP", 35.68, 139.69), ("Yokohama", "Kanagawa", "JP", 35.44, 139.64),
    ("Nagoya", "Aichi", "JP", 35.18, 136.91), ("Ōsaka", "Ōsaka", "JP", 34.69, 135.50),
    ("Nishinomiya", "Hyōgo", "JP", 34.74, 135.34), ("Hiroshima", "Hiroshima", "JP", 34.39, 132.46),
    ("Fukuoka", "Fukuoka", "JP", 33.59, 130.40), ("Sapporo", "Hokkaidō", "JP", 43.06, 141.35),
    ("Sendai", "Miyagi", "JP", 38.27, 140.87), ("Chiba", "Chiba", "JP", 35.61, 140.12),
    ("Tokorozawa", "Saitama", "JP", 35.80, 139.47), ("Kōbe", "Hyōgo", "JP", 34.69, 135.20),
)
RUSSIA: tuple[City, ...] = (
    ("Moskva", "Moskva", "RU", 55.76, 37.62), ("Sankt-Peterburg", "Sankt-Peterburg", "RU", 59.93, 30.34),
    ("Jaroslavl'", "Jaroslavskaja", "RU", 57.63, 39.87), ("Kazan'", "Tatarstan", "RU", 55.79, 49.12),
    ("Ufa", "Baškortostan", "RU", 54.73, 55.96), ("Magnitogorsk", "Čeljabinskaja", "RU", 53.41, 59.02),
    ("Čeljabinsk", "Čeljabinskaja", "RU", 55.16, 61.40), ("Omsk", "Omskaja", "RU", 54.99, 73.37),
    ("Novosibirsk", "Novosibirskaja", "RU", 55.03, 82.92), ("Nižnij Novgorod", "Nižegorodskaja", "RU", 56.33, 44.00),
    ("Jekaterinburg", "Sverdlovskaja", "RU", 56.84, 60.61), ("Soči", "Krasnodarskij", "RU", 43.60, 39.73),
    ("Minsk", "Minsk", "BY", 53.90, 27.56), ("Astana", "Astana", "KZ", 51.17, 71.45),
    ("Vladivostok", "Primorskij", "RU", 43.12, 131.89), ("Chabarovsk", "Chabarovskij", "RU", 48.48, 135.08),
    ("Tol'jatti", "Samarskaja", "RU", 53.51, 49.42), ("Nižnekamsk", "Tatarstan", "RU", 55.64, 51.82),
    ("Čerepovec", "Vologodskaja", "RU", 59.13, 37.90), ("Podol'sk", "Moskovskaja", "RU", 55.43, 37.54),
    ("Beijing", "Beijing", "CN", 39.90, 116.41), ("Saratov", "Saratovskaja", "RU", 51.53, 46.03),
)
EUROPE: tuple[City, ...] = (
    ("Madrid", "Comunidad de Madrid", "ES", 40.42, -3.70), ("Barcelona", "Catalunya", "ES", 41.39, 2.17),
    ("València", "Comunitat Valenciana", "ES", 39.47, -0.38), ("Vitoria-Gasteiz", "País Vasco", "ES", 42.85, -2.67),
    ("Málaga", "Andalucía", "ES", 36.72, -4.42), ("İstanbul", "İstanbul", "TR", 41.01, 28.98),
    ("Athína", "Attikí", "GR", 37.98, 23.73), ("Peiraiás", "Attikí", "GR", 37.94, 23.65),
    ("Beograd", "Beograd", "RS", 44.79, 20.45), ("Kaunas", "Kauno apskritis", "LT", 54.90, 23.90),
    ("Milano", "Lombardia", "IT", 45.46, 9.19), ("Bologna", "Emilia-Romagna", "IT", 44.49, 11.34),
    ("München", "Bayern", "DE", 48.14, 11.58), ("Berlin", "Berlin", "DE", 52.52, 13.40),
    ("Paris", "Île-de-France", "FR", 48.86, 2.35), ("Monaco", "Monaco", "FR", 43.74, 7.42),
    ("Villeurbanne", "Auvergne-Rhône-Alpes", "FR", 45.77, 4.88), ("Tel Aviv", "Tel Aviv", "IL", 32.09, 34.78),
    ("Zagreb", "Zagreb", "HR", 45.81, 15.98), ("Ljubljana", "Ljubljana", "SI", 46.06, 14.51),
)
FOOTBALL: dict[str, tuple[City, ...]] = {
    "GB": (("London", "Greater London", "GB", 51.51, -0.13), ("Manchester", "Greater Manchester", "GB", 53.48, -2.24),
           ("Liverpool", "Merseyside", "GB", 53.41, -2.99), ("Birmingham", "West Midlands", "GB", 52.49, -1.89),
           ("Newcastle upon Tyne", "Tyne and Wear", "GB", 54.98, -1.62), ("Leeds", "West Yorkshire", "GB", 53.80, -1.55),
           ("Brighton", "East Sussex", "GB", 50.82, -0.14), ("Nottingham", "Nottinghamshire", "GB", 52.95, -1.15),
           ("Sheffield", "South Yorkshire", "GB", 53.38, -1.47), ("Southampton", "Hampshire", "GB", 50.90, -1.40),
           ("Bristol", "Bristol", "GB", 51.45, -2.59), ("Leicester", "Leicestershire", "GB", 52.64, -1.13)),
    "ES": (("Madrid", "Comunidad de Madrid", "ES", 40.42, -3.70), ("Barcelona", "Catalunya", "ES", 41.39, 2.17),
           ("Sevilla", "Andalucía", "ES", 37.39, -5.98), ("Bilbao", "País Vasco", "ES", 43.26, -2.93),
           ("València", "Comunitat Valenciana", "ES", 39.47, -0.38), ("San Sebastián", "País Vasco", "ES", 43.32, -1.98),
           ("Vigo", "Galicia", "ES", 42.24, -8.72), ("Pamplona", "Navarra", "ES", 42.81, -1.64),
           ("Girona", "Catalunya", "ES", 41.98, 2.82), ("Getafe", "Comunidad de Madrid", "ES", 40.31, -3.73),
           ("Vila-real", "Comunitat Valenciana", "ES", 39.94, -0.10), ("Cádiz", "Andalucía", "ES", 36.53, -6.29)),
    "DE": (("München", "Bayern", "DE", 48.14, 11.58), ("Dortmund", "Nordrhein-Westfalen", "DE", 51.51, 7.47),
           ("Leipzig", "Sachsen", "DE", 51.34, 12.37), ("Leverkusen", "Nordrhein-Westfalen", "DE", 51.03, 6.98),
           ("Frankfurt am Main", "Hessen", "DE", 50.11, 8.68), ("Stuttgart", "Baden-Württemberg", "DE", 48.78, 9.18),
           ("Köln", "Nordrhein-Westfalen", "DE", 50.94, 6.96), ("Mönchengladbach", "Nordrhein-Westfalen", "DE", 51.19, 6.44),
           ("Freiburg im Breisgau", "Baden-Württemberg", "DE", 47.99, 7.84), ("Bremen", "Bremen", "DE", 53.08, 8.80),
           ("Wolfsburg", "Niedersachsen", "DE", 52.42, 10.79), ("Hamburg", "Hamburg", "DE", 53.55, 9.99)),
    "FR": (("Paris", "Île-de-France", "FR", 48.86, 2.35), ("Marseille", "Provence-Alpes-Côte d'Azur", "FR", 43.30, 5.37),
           ("Lyon", "Auvergne-Rhône-Alpes", "FR", 45.76, 4.84), ("Lille", "Hauts-de-France", "FR", 50.63, 3.06),
           ("Nice", "Provence-Alpes-Côte d'Azur", "FR", 43.70, 7.27), ("Rennes", "Bretagne", "FR", 48.11, -1.68),
           ("Lens", "Hauts-de-France", "FR", 50.43, 2.83), ("Nantes", "Pays de la Loire", "FR", 47.22, -1.55),
           ("Saint-Étienne", "Auvergne-Rhône-Alpes", "FR", 45.44, 4.39), ("Montpellier", "Occitanie", "FR", 43.61, 3.88),
           ("Strasbourg", "Grand Est", "FR", 48.57, 7.75), ("Toulouse", "Occitanie", "FR", 43.60, 1.44)),
}

NICKNAMES_US = ("Hawks", "Comets", "Pioneers", "Rivermen", "Foxes", "Stingrays", "Thunder Birds",
                "Miners", "Wolves", "Mariners", "Lumberjacks", "Express", "Sentinels", "Owls",
                "Bison", "Cyclones", "Outlaws", "Voyagers", "Knights", "Herons", "Tritons",
                "Blaze", "Grizzlies", "Rockets", "Stallions", "Falcons", "Anchors", "Barons",
                "Coyotes", "Ironmen", "Jackrabbits", "Kestrels", "Lynx", "Monarchs", "Nighthawks",
                "Otters", "Pelicans", "Quakes", "Ravens", "Sound", "Tide", "Vipers", "Wildcats",
                "Yellowjackets", "Zephyrs", "Armada", "Badgers", "Condors", "Dragons", "Eagles")
NICKNAMES_W = ("Sparks", "Storm", "Lightning", "Sol", "Liberty Bells", "Aces", "Fever Pitch",
               "Mystics", "Dream Team", "Valkyries", "Wings", "Sky Riders", "Sun Devils", "Lace",
               "Tempest", "Aurora")
NICKNAMES_KR = ("타이거즈", "라이온즈", "트윈스", "베어스", "랜더스", "자이언츠", "이글스", "다이노스",
                "히어로즈", "위즈", "돌핀스", "유니콘스")
# The Latin form of every Hangul place and nickname above (the city a team plays in, not the
# province the venue's address names): team names carry it ("서울 베어스 (Seoul Bears)").
LATIN_KR: dict[str, str] = {
    "서울": "Seoul", "부산": "Busan", "대구": "Daegu", "인천": "Incheon", "광주": "Gwangju",
    "대전": "Daejeon", "수원": "Suwon", "창원": "Changwon", "울산": "Ulsan", "청주": "Cheongju",
    "타이거즈": "Tigers", "라이온즈": "Lions", "트윈스": "Twins", "베어스": "Bears", "랜더스": "Landers",
    "자이언츠": "Giants", "이글스": "Eagles", "다이노스": "Dinos", "히어로즈": "Heroes", "위즈": "Wiz",
    "돌핀스": "Dolphins", "유니콘스": "Unicorns"}


def latin(words: str) -> str:
    """``words`` with each Hangul word in its Latin form (``LATIN_KR``); others as they are."""
    return " ".join(LATIN_KR.get(word, word) for word in words.split())


NICKNAMES_JP = ("Giants", "Swallows", "Carp", "Dragons", "Tigers", "BayStars", "Hawks", "Buffaloes",
                "Lions", "Marines", "Fighters", "Eagles")
NICKNAMES_RU = ("Lokomotiv", "Dinamo", "Spartak", "Metallurg", "Avangard", "Ak Bars", "Salavat",
                "Torpedo", "Sibir'", "Traktor", "Avtomobilist", "Admiral", "Amur", "Neftechimik",
                "Severstal'", "Vitjaz'", "Barys", "Kunlun", "Lada", "Sokol", "Kristall", "Ermak")
NICKNAMES_EURO = ("Real", "Barça", "Baskonia", "Valencia Basket", "Unicaja", "Fenerbahçe",
                  "Anadolu Efes", "Panathinaikos", "Olympiacos", "Crvena zvezda", "Partizan", "Žalgiris",
                  "Olimpia", "Virtus", "Bayern", "ALBA", "Paris Basketball", "AS Monaco",
                  "LDLC ASVEL", "Maccabi", "Cedevita", "Olimpija")
FC_PREFIX = ("FC", "Athletic", "United", "City", "Sporting", "Racing", "Real", "Olympique", "1. FC",
             "Borussia", "Union", "Dynamo")
