"""Nations the glossary lists: ISO 3166-1 alpha-2 code and English name."""
from __future__ import annotations

NATIONS: tuple[tuple[str, str], ...] = (
    ("US", "United States"), ("CA", "Canada"), ("MX", "Mexico"), ("DO", "Dominican Republic"),
    ("VE", "Venezuela"), ("PR", "Puerto Rico"), ("CU", "Cuba"), ("PA", "Panama"),
    ("CO", "Colombia"), ("NI", "Nicaragua"), ("BR", "Brazil"), ("AR", "Argentina"),
    ("CW", "Curaçao"), ("AW", "Aruba"), ("BS", "Bahamas"), ("JM", "Jamaica"), ("HN", "Honduras"),
    ("PE", "Peru"), ("JP", "Japan"), ("KR", "South Korea"), ("TW", "Taiwan"), ("CN", "China"),
    ("AU", "Australia"), ("NZ", "New Zealand"), ("PH", "Philippines"), ("RU", "Russia"),
    ("BY", "Belarus"), ("KZ", "Kazakhstan"), ("UA", "Ukraine"), ("LV", "Latvia"),
    ("LT", "Lithuania"), ("EE", "Estonia"), ("FI", "Finland"), ("SE", "Sweden"),
    ("NO", "Norway"), ("DK", "Denmark"), ("DE", "Germany"), ("AT", "Austria"),
    ("CH", "Switzerland"), ("CZ", "Czechia"), ("SK", "Slovakia"), ("PL", "Poland"),
    ("SI", "Slovenia"), ("HR", "Croatia"), ("RS", "Serbia"), ("BA", "Bosnia and Herzegovina"),
    ("ME", "Montenegro"), ("GR", "Greece"), ("TR", "Türkiye"), ("IL", "Israel"),
    ("IT", "Italy"), ("ES", "Spain"), ("PT", "Portugal"), ("FR", "France"), ("BE", "Belgium"),
    ("NL", "Netherlands"), ("GB", "United Kingdom"), ("IE", "Ireland"), ("NG", "Nigeria"),
    ("SN", "Senegal"), ("CM", "Cameroon"), ("GH", "Ghana"), ("CI", "Côte d'Ivoire"),
    ("MA", "Morocco"), ("EG", "Egypt"), ("ZA", "South Africa"), ("SS", "South Sudan"),
    ("CD", "DR Congo"), ("ML", "Mali"), ("UY", "Uruguay"), ("CL", "Chile"), ("EC", "Ecuador"),
)

# A US birthplace's state as the USPS abbreviates it, as Lahman and Baseball-Reference print one
# ("Baltimore, MD"); Retrosheet's biofile spells the state out ("Baltimore, Maryland").
US_STATES: dict[str, str] = {
    "Alabama": "AL", "Alaska": "AK", "Arizona": "AZ", "Arkansas": "AR", "California": "CA",
    "Colorado": "CO", "Connecticut": "CT", "Delaware": "DE", "D.C.": "DC",
    "District of Columbia": "DC", "Florida": "FL", "Georgia": "GA", "Hawaii": "HI",
    "Idaho": "ID", "Illinois": "IL", "Indiana": "IN", "Iowa": "IA", "Kansas": "KS",
    "Kentucky": "KY", "Louisiana": "LA", "Maine": "ME", "Maryland": "MD", "Massachusetts": "MA",
    "Michigan": "MI", "Minnesota": "MN", "Mississippi": "MS", "Missouri": "MO", "Montana": "MT",
    "Nebraska": "NE", "Nevada": "NV", "New Hampshire": "NH", "New Jersey": "NJ",
    "New Mexico": "NM", "New York": "NY", "North Carolina": "NC", "North Dakota": "ND",
    "Ohio": "OH", "Oklahoma": "OK", "Oregon": "OR", "Pennsylvania": "PA", "Rhode Island": "RI",
    "South Carolina": "SC", "South Dakota": "SD", "Tennessee": "TN", "Texas": "TX", "Utah": "UT",
    "Vermont": "VT", "Virginia": "VA", "Washington": "WA", "West Virginia": "WV",
    "Wisconsin": "WI", "Wyoming": "WY",
}


def birthplace(city: str, state: str, flag: str | None) -> str | None:
    """"City, ST" for a US birthplace, "City, Region" elsewhere, as the reference sites print it."""
    state = state.strip()
    if flag == "US":
        state = US_STATES.get(state, state)
    return ", ".join(x for x in (city.strip(), state) if x) or None
