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
