# A NatStat client script in R, of the kind found in the wild, run against our /natstat/ base.
#
# Written the way R users write them: jsonlite::fromJSON on the URL, pages followed through
# meta$Next_Page, records taken from the keyed lists with lapply/sapply, a data frame built with
# do.call(rbind, ...), string comparisons, grepl("OT", Overtime), the first three members of a
# stats table dropped, XML read with xml2's XPath. Only BASE and KEY are ours. It prints what it
# found as JSON, which test_natstat compares with the root documents.
#
#     Rscript natstat_client.R http://127.0.0.1:8765/natstat/ ABCD-123456
suppressPackageStartupMessages({
  library(jsonlite)
  library(xml2)
})

args <- commandArgs(trailingOnly = TRUE)
BASE <- args[1]
KEY <- args[2]

get_all <- function(endpoint, level) {
  url <- paste0(BASE, "v2/", endpoint, "/", level, "/?key=", KEY, "&format=json&max=10")
  merged <- list()
  while (!is.null(url) && nzchar(url)) {
    data <- fromJSON(url)
    if (data$success != "1") stop(data$error$message)
    merged <- c(merged, data[[endpoint]])
    url <- data$meta$Next_Page
  }
  merged
}

games <- get_all("games", "MLB")
frame <- do.call(rbind, lapply(games, function(g) {
  data.frame(ID = g$ID, GameStatus = g$GameStatus, Home = g$Home, Overtime = g$Overtime,
             stringsAsFactors = FALSE)
}))
finals <- frame[frame$GameStatus == "Final", ]
overtime <- frame$ID[grepl("OT", frame$Overtime)]

teams <- fromJSON(paste0(BASE, "v2/teams/MLB/?key=", KEY))$teams
active <- sort(unname(unlist(lapply(teams, function(t) if (t$Active == "Y") t$Abbrev))))

table <- fromJSON(paste0(BASE, "v1/stats/MLB/?key=", KEY, "&stat=HR"))$stats
leaders <- unname(sapply(table[-(1:3)], function(r) r$Name))  # the first three describe the table

glossary <- fromJSON(paste0(BASE, "v1/glossary/MLB/stats/?key=", KEY))$items
hr <- Filter(function(item) item$ID == "HR", glossary)[[1]]$Label

doc <- read_xml(paste0(BASE, "v2/games/MLB/?key=", KEY, "&format=xml&max=5"))
xml_ids <- xml_text(xml_find_all(doc, "/*/games/*/ID"))
first_home <- xml_text(xml_find_first(doc, paste0("/*/games/game_", xml_ids[1], "/Home")))

cat(toJSON(list(
  games = length(games), frame_rows = nrow(frame), finals = nrow(finals),
  overtime = I(overtime), active = I(active), leaders = I(leaders), HR = hr,
  xml_ids = I(xml_ids), first_home = first_home
), auto_unbox = TRUE))
