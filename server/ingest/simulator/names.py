"""Name pools per culture: players, officials and the places teams play in.

Names are drawn to fit a league (Korean names in the KBO, Cyrillic transliterations with their
usual spelling in the KHL, European diacritics in the EuroLeague and the football clubs). Each
culture lists the nations its players come from, with weights, and hometowns per nation.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Culture:
    first: tuple[str, ...]
    last: tuple[str, ...]
    nations: tuple[tuple[str, float], ...]  # ISO code, weight


_US_FIRST = ("James", "Michael", "Tyler", "Jordan", "Brandon", "Chris", "Kevin", "Marcus", "Derek",
             "Austin", "Cody", "Jake", "Ryan", "Justin", "Nick", "Zach", "Kyle", "Logan", "Mason",
             "Trevor", "Darius", "Jalen", "Andre", "Malik", "Isaiah", "Caleb", "Ethan", "Noah",
             "Carter", "Hunter", "Bryce", "Trey", "Devin", "Corey", "Shane", "Garrett", "Wyatt",
             "Colton", "Dylan", "Jaylen", "Terrance", "Jamal", "Cooper", "Brady", "Parker", "Reid")
_US_LAST = ("Smith", "Johnson", "Williams", "Brown", "Jones", "Miller", "Davis", "Wilson",
            "Anderson", "Taylor", "Thomas", "Moore", "Jackson", "Martin", "Thompson", "White",
            "Harris", "Clark", "Lewis", "Robinson", "Walker", "Young", "Allen", "King", "Wright",
            "Scott", "Green", "Baker", "Adams", "Nelson", "Hill", "Campbell", "Mitchell",
            "Carter", "Roberts", "Phillips", "Evans", "Turner", "Parker", "Collins", "Edwards",
            "Stewart", "Morris", "Murphy", "Cook", "Rogers", "Morgan", "Cooper", "Peterson",
            "Reed", "Bailey", "Bell", "Kelly", "Howard", "Ward", "Cox", "Richardson", "Wood",
            "Watson", "Brooks", "Bennett", "Gray", "Hughes", "Price", "Sanders", "Myers", "Long")
_US_W_FIRST = ("Ashley", "Brianna", "Jasmine", "Kayla", "Taylor", "Morgan", "Alyssa", "Destiny",
               "Aaliyah", "Brittney", "Courtney", "Kelsey", "Madison", "Sydney", "Jordan",
               "Paige", "Caitlin", "Breanna", "Angel", "Diamond", "Natasha", "Skylar", "Haley",
               "Lauren", "Megan", "Riley", "Aliyah", "Kiara", "Olivia", "Sabrina", "Jewell")
_LATIN_FIRST = ("José", "Luis", "Carlos", "Juan", "Miguel", "Rafael", "Jesús", "Pedro", "Ramón",
                "Francisco", "Yordan", "Yandy", "Ronald", "Elvis", "Wander", "Julio", "Andrés",
                "Eduardo", "Víctor", "Ángel", "Freddy", "Jeremy", "Óscar", "Raúl", "Adolis")
_LATIN_LAST = ("Rodríguez", "Martínez", "Pérez", "Hernández", "González", "Ramírez", "Díaz",
               "Jiménez", "Peña", "Guerrero", "Soto", "Tatís", "Núñez", "Álvarez", "Marte",
               "Castillo", "Báez", "Ortiz", "Cruz", "Reyes", "Suárez", "Domínguez", "Acuña",
               "Chourio", "Montero", "Valdez", "Cabrera", "Santana", "Arráez", "Peralta")
_KR_FIRST = ("하성", "정후", "현진", "광현", "민호", "지환", "재원", "성민", "동현", "준영",
             "승환", "태형", "영민", "우진", "도윤", "시우", "건우", "현우", "지훈", "민재")
_KR_LAST = ("김", "이", "박", "최", "정", "강", "조", "윤", "장", "임", "한", "오", "서", "신", "양")
# The Latin form of every Hangul name part above, as the players themselves spell it abroad
# (Ha-seong Kim, Hyun-jin Ryu): a reader who has no Hangul reads and types this one.
LATIN_KR: dict[str, str] = {
    "하성": "Ha-seong", "정후": "Jung-hoo", "현진": "Hyun-jin", "광현": "Kwang-hyun", "민호": "Min-ho",
    "지환": "Ji-hwan", "재원": "Jae-won", "성민": "Sung-min", "동현": "Dong-hyun", "준영": "Jun-young",
    "승환": "Seung-hwan", "태형": "Tae-hyung", "영민": "Young-min", "우진": "Woo-jin", "도윤": "Do-yun",
    "시우": "Si-woo", "건우": "Gun-woo", "현우": "Hyun-woo", "지훈": "Ji-hoon", "민재": "Min-jae",
    "김": "Kim", "이": "Lee", "박": "Park", "최": "Choi", "정": "Jung", "강": "Kang", "조": "Cho",
    "윤": "Yoon", "장": "Jang", "임": "Lim", "한": "Han", "오": "Oh", "서": "Seo", "신": "Shin",
    "양": "Yang"}
_JP_FIRST = ("Shohei", "Yu", "Kodai", "Munetaka", "Roki", "Seiya", "Masataka", "Yoshinobu",
             "Kensuke", "Haruki", "Takumi", "Daichi", "Sota", "Ren", "Yuto", "Kaito", "Hiroto",
             "Shota", "Ryota", "Kenta", "Tatsuya", "Yuki", "Naoki", "Shinnosuke")
_JP_LAST = ("Suzuki", "Tanaka", "Yamamoto", "Watanabe", "Ito", "Nakamura", "Kobayashi", "Kato",
            "Yoshida", "Yamada", "Sasaki", "Matsumoto", "Inoue", "Kimura", "Hayashi", "Shimizu",
            "Murakami", "Okamoto", "Kondo", "Imanaga", "Senga", "Sato", "Takahashi", "Ōtani")
_RU_FIRST = ("Dmitrij", "Aleksandr", "Sergej", "Andrej", "Nikita", "Jevgenij", "Ilja", "Kirill",
             "Maksim", "Artjom", "Vladislav", "Pavel", "Ivan", "Jegor", "Vadim", "Anton",
             "Mikhail", "Denis", "Roman", "Vasilij")
_RU_LAST = ("Kovalev", "Ovečkin", "Malkin", "Kučerov", "Panarin", "Tarasenko", "Šipačov",
            "Gusev", "Kaprizov", "Michejev", "Vasiljevskij", "Sorokin", "Grigorenko", "Zadorov",
            "Orlov", "Kuznecov", "Nikolajev", "Žukov", "Bystrov", "Čerepanov", "Semjonov",
            "Fjodorov", "Jakovlev", "Lebedev", "Volkov")
_NORDIC_FIRST = ("Mikko", "Erik", "Oskar", "Elias", "Jesper", "Rasmus", "Patrik", "David",
                 "Jakub", "Tomáš", "Ondřej", "Lukáš", "Marián", "Juraj")
_NORDIC_LAST = ("Rantanen", "Karlsson", "Lindholm", "Pettersson", "Dahlin", "Hedman",
                "Pastrňák", "Nečas", "Hertl", "Slafkovský", "Hischier", "Aho", "Laine",
                "Granlund", "Nyquist", "Forsberg", "Vrána", "Voráček", "Šimek")
_CA_FIRST = ("Connor", "Sidney", "Nathan", "Mitch", "Brayden", "Cale", "Jordan", "Mark",
             "Tyler", "Brad", "Logan", "Quinn", "Owen", "Dawson", "Nolan", "Evan", "Cole", "Ty")
_CA_LAST = ("McDavid", "Crosby", "MacKinnon", "Marner", "Point", "Makar", "Binnington",
            "Stone", "Seguin", "Marchand", "Thompson", "Hughes", "Power", "Mercer", "Bedard",
            "Tremblay", "Gagnon", "Roy", "Côté", "Bouchard", "Gauthier", "Morin", "Lavoie")
_EURO_FIRST = ("Luka", "Nikola", "Bogdan", "Vasilije", "Giannis", "Kostas", "Sergio", "Jonas",
               "Rudy", "Evan", "Mario", "Dario", "Goran", "Dejan", "Miloš", "Mindaugas",
               "Šarūnas", "Arnoldas", "Nicolò", "Willy", "Théo", "Álex", "Sertaç", "Furkan",
               "Dāvis", "Kristaps", "Jan", "Tomáš", "Ognjen")
_EURO_LAST = ("Dončić", "Jokić", "Bogdanović", "Micić", "Antetokounmpo", "Papagiannis",
              "Llull", "Valančiūnas", "Gobert", "Fournier", "Hezonja", "Šarić", "Dragić",
              "Teodosić", "Kuzminskas", "Jasikevičius", "Kulboka", "Mannion", "Hernangómez",
              "Maledon", "Abrines", "Şanlı", "Korkmaz", "Bertāns", "Porziņģis", "Veselý",
              "Satoranský", "Jovanović", "Nikolić", "Petrović")
_EN_FIRST = ("Harry", "Jack", "Callum", "Declan", "Bukayo", "Marcus", "Jude", "Phil", "Mason",
             "Kieran", "Reece", "Conor", "Ollie", "Jamie", "Lewis", "Aaron")
_EN_LAST = ("Kane", "Grealish", "Rice", "Saka", "Rashford", "Bellingham", "Foden", "Mount",
            "Trippier", "James", "Walker", "Henderson", "Pickford", "Stones", "Watkins",
            "Bowen", "Gallagher", "Palmer", "Toney", "Maddison")
_ES_FIRST = ("Álvaro", "Pedro", "Pablo", "Íñigo", "Dani", "Marc", "Ferran", "Nicolás", "Mikel",
             "Unai", "Rodrigo", "Joaquín", "Sergio", "Raúl")
_ES_LAST = ("Morata", "González", "Martínez", "Olmo", "Carvajal", "Cucurella", "Torres",
            "Oyarzabal", "Merino", "Zubimendi", "Ruiz", "Simón", "Laporte", "Fernández")
_DE_FIRST = ("Thomas", "Jamal", "Florian", "Kai", "Joshua", "Leon", "Manuel", "Niclas",
             "İlkay", "Jonas", "Lukas", "Maximilian", "Felix")
_DE_LAST = ("Müller", "Musiala", "Wirtz", "Havertz", "Kimmich", "Goretzka", "Neuer", "Füllkrug",
            "Gündoğan", "Rüdiger", "Schlotterbeck", "Groß", "Brandt")
_FR_FIRST = ("Kylian", "Antoine", "Olivier", "Ousmane", "N'Golo", "Aurélien", "Théo", "Jules",
             "Randal", "Eduardo", "Kingsley", "Hugo")
_FR_LAST = ("Mbappé", "Griezmann", "Giroud", "Dembélé", "Kanté", "Tchouaméni", "Hernández",
            "Koundé", "Kolo Muani", "Camavinga", "Coman", "Lloris", "Saliba", "Thuram")
_W_EURO_FIRST = ("Alexia", "Aitana", "Lucy", "Leah", "Beth", "Alessia", "Lena", "Giulia",
                 "Kadidiatou", "Wendie", "Ada", "Sam", "Caroline", "Pernille", "Mapi", "Salma")
_W_EURO_LAST = ("Putellas", "Bonmatí", "Bronze", "Williamson", "Mead", "Russo", "Oberdorf",
                "Gwinn", "Diani", "Renard", "Hegerberg", "Kerr", "Graham Hansen", "Harder",
                "León", "Paralluelo", "Schüller", "Bühl", "Gréboval")

CULTURES: dict[str, Culture] = {
    "us": Culture(_US_FIRST, _US_LAST, (("US", 0.9), ("CA", 0.05), ("AU", 0.02), ("NG", 0.03))),
    "us_w": Culture(_US_W_FIRST, _US_LAST, (("US", 0.9), ("CA", 0.05), ("AU", 0.05))),
    "mlb": Culture(_US_FIRST + _LATIN_FIRST, _US_LAST + _LATIN_LAST,
                   (("US", 0.7), ("DO", 0.11), ("VE", 0.07), ("CU", 0.03), ("PR", 0.02),
                    ("MX", 0.02), ("JP", 0.01), ("CA", 0.02), ("CO", 0.01), ("PA", 0.01))),
    "kr": Culture(_KR_FIRST, _KR_LAST, (("KR", 1.0),)),
    "jp": Culture(_JP_FIRST, _JP_LAST, (("JP", 1.0),)),
    "ru": Culture(_RU_FIRST, _RU_LAST, (("RU", 0.78), ("BY", 0.08), ("KZ", 0.08), ("LV", 0.06))),
    "nhl": Culture(_CA_FIRST + _US_FIRST[:20] + _NORDIC_FIRST + _RU_FIRST[:8],
                   _CA_LAST + _US_LAST[:25] + _NORDIC_LAST + _RU_LAST[:10],
                   (("CA", 0.42), ("US", 0.28), ("SE", 0.09), ("FI", 0.05), ("RU", 0.07),
                    ("CZ", 0.05), ("SK", 0.02), ("CH", 0.02))),
    "euro": Culture(_EURO_FIRST + _US_FIRST[:12], _EURO_LAST + _US_LAST[:12],
                    (("RS", 0.14), ("SI", 0.06), ("HR", 0.08), ("GR", 0.12), ("ES", 0.12),
                     ("LT", 0.1), ("FR", 0.1), ("TR", 0.08), ("LV", 0.04), ("US", 0.16))),
    "nba": Culture(_US_FIRST + _EURO_FIRST[:8], _US_LAST + _EURO_LAST[:8],
                   (("US", 0.75), ("CA", 0.05), ("FR", 0.03), ("RS", 0.02), ("SI", 0.01),
                    ("AU", 0.03), ("NG", 0.03), ("GR", 0.01), ("DE", 0.02), ("ES", 0.02),
                    ("CM", 0.01), ("LT", 0.02))),
    "fc": Culture(_EN_FIRST + _ES_FIRST + _DE_FIRST + _FR_FIRST + _LATIN_FIRST[:8],
                  _EN_LAST + _ES_LAST + _DE_LAST + _FR_LAST + _LATIN_LAST[:8],
                  (("GB", 0.25), ("ES", 0.18), ("DE", 0.15), ("FR", 0.14), ("BR", 0.06),
                   ("AR", 0.05), ("PT", 0.05), ("NL", 0.04), ("SN", 0.03), ("NG", 0.03),
                   ("IT", 0.02))),
    "fc_w": Culture(_W_EURO_FIRST, _W_EURO_LAST,
                    (("GB", 0.35), ("ES", 0.2), ("DE", 0.15), ("FR", 0.1), ("NO", 0.05),
                     ("AU", 0.05), ("US", 0.1))),
}

HOMETOWNS: dict[str, tuple[str, ...]] = {
    "US": ("Atlanta, GA", "Houston, TX", "Chicago, IL", "Los Angeles, CA", "Brooklyn, NY",
           "Philadelphia, PA", "Dallas, TX", "Baltimore, MD", "Oakland, CA", "Miami, FL",
           "Tampa, FL", "Memphis, TN", "Indianapolis, IN", "Columbus, OH", "Seattle, WA",
           "Denver, CO", "Phoenix, AZ", "Charlotte, NC", "Louisville, KY", "Omaha, NE",
           "Boise, ID", "Minneapolis, MN", "Sacramento, CA", "San Diego, CA", "Detroit, MI"),
    "CA": ("Toronto, ON", "Montréal, QC", "Edmonton, AB", "Calgary, AB", "Vancouver, BC",
           "Winnipeg, MB", "Halifax, NS", "Saskatoon, SK", "Québec, QC", "Ottawa, ON"),
    "DO": ("Santo Domingo", "San Pedro de Macorís", "Santiago", "Baní", "La Romana"),
    "VE": ("Caracas", "Maracaibo", "Valencia", "Barquisimeto", "Puerto Cabello"),
    "CU": ("La Habana", "Cienfuegos", "Santiago de Cuba"), "PR": ("San Juan", "Ponce", "Bayamón"),
    "MX": ("Monterrey", "Hermosillo", "Culiacán"), "CO": ("Cartagena", "Barranquilla"),
    "PA": ("Panamá", "Colón"), "JP": ("Tōkyō", "Ōsaka", "Nagoya", "Sapporo", "Fukuoka", "Sendai",
                                      "Hiroshima", "Yokohama", "Kōbe", "Niigata"),
    "KR": ("서울 (Seoul)", "부산 (Busan)", "대구 (Daegu)", "인천 (Incheon)", "광주 (Gwangju)",
           "대전 (Daejeon)", "수원 (Suwon)", "창원 (Changwon)"),
    "RU": ("Moskva", "Sankt-Peterburg", "Jaroslavl'", "Čeljabinsk", "Omsk", "Kazan'",
           "Magnitogorsk", "Novosibirsk", "Ufa", "Nižnij Novgorod"),
    "BY": ("Minsk", "Gomel'"), "KZ": ("Astana", "Ust'-Kamenogorsk"), "LV": ("Rīga", "Liepāja"),
    "SE": ("Stockholm", "Göteborg", "Malmö", "Örnsköldsvik"), "FI": ("Helsinki", "Tampere", "Turku"),
    "CZ": ("Praha", "Brno", "Plzeň", "Třinec"), "SK": ("Bratislava", "Košice"),
    "CH": ("Zürich", "Bern", "Lugano"), "RS": ("Beograd", "Novi Sad", "Niš", "Kraljevo"),
    "SI": ("Ljubljana", "Maribor", "Celje"), "HR": ("Zagreb", "Split", "Šibenik"),
    "GR": ("Athína", "Thessaloníki", "Pátra"), "ES": ("Madrid", "Barcelona", "Sevilla",
                                                       "València", "Bilbao", "Málaga"),
    "LT": ("Vilnius", "Kaunas", "Klaipėda", "Šiauliai"), "FR": ("Paris", "Lyon", "Marseille",
                                                               "Nantes", "Saint-Étienne"),
    "TR": ("İstanbul", "Ankara", "İzmir"), "AU": ("Melbourne", "Sydney", "Perth"),
    "NG": ("Lagos", "Abuja"), "DE": ("München", "Köln", "Düsseldorf", "Gelsenkirchen", "Hamburg"),
    "CM": ("Yaoundé", "Douala"), "GB": ("London", "Manchester", "Liverpool", "Birmingham",
                                        "Leeds", "Newcastle upon Tyne"),
    "BR": ("São Paulo", "Rio de Janeiro", "Belo Horizonte"), "AR": ("Buenos Aires", "Rosario"),
    "PT": ("Lisboa", "Porto"), "NL": ("Amsterdam", "Rotterdam"), "SN": ("Dakar",),
    "IT": ("Roma", "Milano", "Torino"), "NO": ("Oslo", "Bergen"),
}

NATION_NAMES: dict[str, str] = {}


def nation_name(code: str) -> str:
    """The glossary's English name of a nation (falls back to the code)."""
    if not NATION_NAMES:
        from server.catalog.nations import NATIONS
        NATION_NAMES.update(dict(NATIONS))
    return NATION_NAMES.get(code, code)


def draw_people(rng: np.random.Generator, culture: str, n: int) -> list[tuple[str, str, str, str]]:
    """n people of a culture: (first, last, nation code, hometown), drawn from the pools."""
    c = CULTURES[culture]
    codes = [code for code, _ in c.nations]
    w = np.array([wt for _, wt in c.nations], dtype=float)
    nat = rng.choice(len(codes), size=n, p=w / w.sum())
    fi = rng.integers(0, len(c.first), size=n)
    la = rng.integers(0, len(c.last), size=n)
    town = rng.random(n)
    out = []
    for k in range(n):
        code = codes[nat[k]]
        first, last = c.first[fi[k]], c.last[la[k]]
        # A Latin name for a Dominican player, an English one otherwise, where a pool mixes both.
        towns = HOMETOWNS.get(code, ("",))
        out.append((first, last, code, towns[int(town[k] * len(towns))]))
    return out


def full_name(first: str, last: str, culture: str) -> str:
    """Korean names are written family name first and without a space, followed by their Latin
    form in the order it is printed abroad ("김하성 (Ha-seong Kim)"), so that everyone can read
    the name and find it by typing Kim: a surname search matches the Latin form's last word."""
    if culture == "kr":
        return with_latin(f"{last}{first}", f"{LATIN_KR[first]} {LATIN_KR[last]}")
    return f"{first} {last}"


def with_latin(native: str, latin: str) -> str:
    """A name in a script other than Latin, with its Latin form in parentheses; the name
    itself when both are the same. The one way every generated name pairs them."""
    return native if native == latin else f"{native} ({latin})"
