# -*- coding: utf-8 -*-
"""Contest data for the portal-l catalog (fictional world: ocean data, music tech,
small satellites, security, fintech, agritech, rail open data, youth coding).

Every entry: key, org, series (or None), edition year, division (or None),
title, start, end ("YYYY-MM-DD HH:MM", Asia/Seoul), url, sourceName, tags, description.
The key is internal; generate.py turns it into a c-<16 hex> id.
"""

C = []


def c(key, org, series, year, division, title, start, end, url, source, tags, desc):
    C.append(dict(key=key, org=org, series=series, year=year, division=division,
                  title=title, start=start, end=end, url=url, source=source,
                  tags=tags, description=desc))


# --------------------------------------------------------------------------
# Series A - 해솔 오션 해커톤 / Haesol Ocean Hackathon (예선 online, 본선 Yeongdo)
# --------------------------------------------------------------------------
c("A25q", "haesol", "haesol-ocean-hackathon", 2025, "예선",
  "2025 해솔 오션 해커톤 예선",
  "2025-05-10 10:00", "2025-05-24 23:59",
  "https://haesol.example/hackathon/2025/qualifier", "해솔해양데이터재단",
  ["hackathon", "ocean", "data", "online"],
  "해솔해양데이터재단이 주최하는 해양 데이터 해커톤의 온라인 예선입니다. "
  "물마루 API로 제공되는 연안 부이 관측 데이터를 활용해 2주 동안 아이디어와 프로토타입을 제출하며, 팀은 2~4명으로 구성합니다. "
  "상위 20팀이 7월 부산 영도 해솔센터에서 열리는 본선에 진출합니다.")

c("A25f", "haesol", "haesol-ocean-hackathon", 2025, "본선",
  "2025 해솔 Ocean Hackathon 본선",
  "2025-07-12 10:00", "2025-07-13 18:00",
  "https://haesol.example/hackathon/2025/finals", "해솔해양데이터재단",
  ["hackathon", "ocean", "data", "offline"],
  "예선을 통과한 20팀이 부산 영도 해솔센터에서 무박 2일 동안 겨루는 본선입니다. "
  "대상 1팀에게 상금 1,500만 원, 최우수 2팀에게 각 500만 원이 수여됩니다. "
  "심사는 데이터 활용도, 현장 적용 가능성, 발표 세 항목으로 진행됩니다.")

c("A26q", "haesol", "haesol-ocean-hackathon", 2026, "예선",
  "Haesol Ocean Hackathon 2026 Qualifier",
  "2026-05-09 10:00", "2026-05-23 23:59",
  "https://haesol.example/hackathon/2026/qualifier", "Haesol Marine Data Foundation",
  ["hackathon", "ocean", "data", "online"],
  "Online qualifier of the Haesol Ocean Hackathon, run by the Haesol Marine Data Foundation. "
  "Teams of 2-4 build a prototype on Mulmaru API 2.0 buoy and tide data over two weeks. "
  "The top 24 teams advance to the finals in Yeongdo, Busan.")

c("A26f", "haesol", "haesol-ocean-hackathon", 2026, "본선",
  "Haesol Ocean Hackathon 2026 Finals",
  "2026-07-11 10:00", "2026-07-12 16:00",
  "https://haesol.example/hackathon/2026/finals", "Haesol Marine Data Foundation",
  ["hackathon", "ocean", "data", "offline"],
  "24 qualifying teams compete for 30 hours at Haesol Center in Yeongdo, Busan. "
  "The grand prize is KRW 20 million and two runner-up teams receive KRW 7 million each. "
  "New this year is a marine-litter track sponsored by Yeongdo Harbor Co.")

c("A27q", "haesol", "haesol-ocean-hackathon", 2027, "예선",
  "2027 해솔 오션 해커톤 예선 (Haesol Ocean Hackathon Qualifier)",
  "2027-03-06 10:00", "2027-03-20 23:59",
  "https://haesol.example/hackathon/2027/qualifier", "해솔해양데이터재단",
  ["hackathon", "ocean", "data", "online"],
  "2027년 해솔 오션 해커톤 온라인 예선으로, 3월 6일부터 20일까지 진행됩니다. "
  "올해는 물마루 API 3.0의 실시간 파고 스트림을 반드시 활용해야 하며, 팀 인원은 2~5명으로 늘었습니다. "
  "상위 24팀이 5월 본선에 진출합니다.")

c("A27f", "haesol", "haesol-ocean-hackathon", 2027, "본선",
  "2027 해솔 오션 해커톤 본선",
  "2027-05-15 10:00", "2027-05-16 18:00",
  "https://haesol.example/hackathon/2027/finals", "해솔해양데이터재단",
  ["hackathon", "ocean", "data", "offline"],
  "5월 15~16일 부산 영도 해솔센터에서 열리는 본선입니다. "
  "대상 상금은 2,500만 원으로 인상되었고, 해양 쓰레기·연안 안전·양식 데이터 세 트랙으로 나뉩니다. "
  "예선을 통과한 팀만 참가할 수 있습니다.")

# --------------------------------------------------------------------------
# Series B - 가람 뮤직테크 챌린지 / Garam MusicTech Challenge (학생 / 일반)
# --------------------------------------------------------------------------
c("B25s", "garam", "garam-musictech", 2025, "학생",
  "Garam MusicTech Challenge 2025 - Student Division",
  "2025-09-01 00:00", "2025-10-31 23:59",
  "https://garamsound.example/challenge/2025/student", "Garam Sound Lab",
  ["music", "sdk", "student", "online"],
  "Student division of Garam Sound Lab's yearly music technology challenge. "
  "Enrolled undergraduate and graduate students build apps or plug-ins with Sorigyeol SDK 4.0. "
  "Teams of up to 3; the first prize is KRW 3 million plus an internship interview at Garam Sound Lab.")

c("B25g", "garam", "garam-musictech", 2025, "일반",
  "2025 가람 MusicTech 챌린지 일반 부문",
  "2025-09-01 00:00", "2025-10-31 23:59",
  "https://garamsound.example/challenge/2025/general", "가람사운드랩",
  ["music", "sdk", "online"],
  "누구나 참가할 수 있는 일반 부문으로, 소리결 SDK를 활용한 음악 제작·공연·교육 서비스를 공모합니다. "
  "1인 또는 최대 5인 팀으로 참가할 수 있으며 대상 상금은 1,000만 원입니다. "
  "결선 시연은 서울 성수 소리마루홀에서 열립니다.")

c("B26s", "garam", "garam-musictech", 2026, "학생",
  "2026 가람 뮤직테크 챌린지 학생 부문",
  "2026-09-01 00:00", "2026-10-31 23:59",
  "https://garamsound.example/challenge/2026/student", "가람사운드랩",
  ["music", "sdk", "student", "online"],
  "대학(원)생을 대상으로 하는 학생 부문으로, 올해는 소리결 SDK 4.2의 실시간 음정 추적 기능 활용을 권장합니다. "
  "팀은 최대 3명이며 1등 상금은 400만 원입니다. "
  "결선은 11월 21일 서울 성수 소리마루홀에서 열립니다.")

c("B26g", "garam", "garam-musictech", 2026, "일반",
  "Garam MusicTech Challenge 2026 (General Division)",
  "2026-09-01 00:00", "2026-10-31 23:59",
  "https://garamsound.example/challenge/2026/general", "Garam Sound Lab",
  ["music", "sdk", "online"],
  "Open division of the 2026 Garam MusicTech Challenge. "
  "Solo developers or teams of up to 5 submit music creation, performance or accessibility tools built on Sorigyeol SDK. "
  "Grand prize KRW 12 million; finalists demo live at Sorimaru Hall in Seongsu, Seoul.")

c("B27s", "garam", "garam-musictech", 2027, "학생",
  "가람 MusicTech Challenge 2027 학생 부문",
  "2027-01-15 00:00", "2027-03-15 23:59",
  "https://garamsound.example/challenge/2027/student", "가람사운드랩",
  ["music", "sdk", "student", "online"],
  "2027년 학생 부문은 1월 15일부터 3월 15일까지 작품을 접수합니다. "
  "소리결 SDK 5.0의 음원 분리(stem separation) 기능을 반드시 활용해야 하며, 팀은 최대 3명, 1등 상금은 500만 원입니다. "
  "고등학생도 지도교사 추천서가 있으면 참가할 수 있습니다.")

c("B27g", "garam", "garam-musictech", 2027, "일반",
  "Garam MusicTech Challenge 2027 - General Division",
  "2027-01-15 00:00", "2027-02-14 23:59",
  "https://garamsound.example/challenge/2027/general", "Garam Sound Lab",
  ["music", "sdk", "online"],
  "General division of the 2027 challenge, open to anyone including companies with fewer than 10 employees. "
  "Submissions close on February 14, 2027, a month earlier than the student division. "
  "Grand prize KRW 15 million plus six months of free Sorigyeol SDK 5.0 Pro licences.")

# --------------------------------------------------------------------------
# Series C - 은결 CTF / Eungyeol CTF (예선 / 본선)
# --------------------------------------------------------------------------
c("C25q", "eungyeol", "eungyeol-ctf", 2025, "예선",
  "Eungyeol CTF 2025 Qualifier",
  "2025-08-16 10:00", "2025-08-17 10:00",
  "https://eungyeol.example/ctf/2025/quals", "Eungyeol Security",
  ["ctf", "security", "online"],
  "24-hour online jeopardy-style qualifier of Eungyeol CTF, hosted by Eungyeol Security. "
  "Teams of up to 4 solve pwn, web, crypto, reversing and forensics challenges. "
  "The top 15 teams and the top 5 university teams qualify for the finals.")

c("C25f", "eungyeol", "eungyeol-ctf", 2025, "본선",
  "2025 은결 CTF 본선",
  "2025-10-25 09:00", "2025-10-25 19:00",
  "https://eungyeol.example/ctf/2025/finals", "은결보안",
  ["ctf", "security", "offline"],
  "예선 상위 20팀이 서울 마곡 은결홀에서 겨루는 공격·방어(Attack & Defense) 방식 본선입니다. "
  "우승 상금 2,000만 원, 준우승 1,000만 원, 3위 500만 원이 주어집니다. "
  "본선은 10시간 동안 오프라인으로 진행됩니다.")

c("C26q", "eungyeol", "eungyeol-ctf", 2026, "예선",
  "2026 은결 CTF 예선",
  "2026-08-15 09:00", "2026-08-16 09:00",
  "https://eungyeol.example/ctf/2026/quals", "은결보안",
  ["ctf", "security", "online"],
  "은결보안이 주최하는 2026년 CTF 온라인 예선으로 24시간 동안 진행됩니다. "
  "올해부터 팀 인원이 최대 5명으로 늘었고, 하드웨어·펌웨어 분야 문제가 추가되었습니다. "
  "상위 20팀이 10월 본선에 진출합니다.")

c("C26f", "eungyeol", "eungyeol-ctf", 2026, "본선",
  "Eungyeol CTF 2026 Finals",
  "2026-10-24 09:00", "2026-10-25 17:00",
  "https://eungyeol.example/ctf/2026/finals", "Eungyeol Security",
  ["ctf", "security", "offline"],
  "Attack & Defense finals for the top 20 qualifying teams, held over two days at Eungyeol Hall in Magok, Seoul. "
  "The prize pool is KRW 40 million: 20 million for first, 10 million for second, 5 million for third, "
  "plus a KRW 5 million best-student-team prize.")

c("C27q", "eungyeol", "eungyeol-ctf", 2027, "예선",
  "은결 CTF 2027 예선 (Eungyeol CTF Qualifier)",
  "2027-02-13 09:00", "2027-02-14 09:00",
  "https://eungyeol.example/ctf/2027/quals", "은결보안",
  ["ctf", "security", "online"],
  "2027년 은결 CTF 예선은 2월 13일 오전 9시부터 24시간 동안 온라인으로 열립니다. "
  "팀은 최대 5명이며, 올해는 AI 모델 공격(프롬프트 인젝션) 분야가 신설되었습니다. "
  "참가 등록은 2월 12일 자정에 마감됩니다.")

c("C27f", "eungyeol", "eungyeol-ctf", 2027, "본선",
  "Eungyeol CTF 2027 Finals",
  "2027-04-17 09:00", "2027-04-18 17:00",
  "https://eungyeol.example/ctf/2027/finals", "Eungyeol Security",
  ["ctf", "security", "offline"],
  "Finals of Eungyeol CTF 2027 at Eungyeol Hall, Magok, Seoul. "
  "For the first time the finals run in a King-of-the-Hill format over two days. "
  "First prize is KRW 25 million and only teams that pass the February qualifier may enter.")

# --------------------------------------------------------------------------
# Series D - 별밭 큐브샛 설계 경진대회 / Byeolbat CubeSat Design Cup (학생 / 일반)
# --------------------------------------------------------------------------
c("D25s", "byeolbat", "byeolbat-cubesat", 2025, "학생",
  "제3회 별밭 큐브샛 설계 경진대회 학생 부문",
  "2025-03-03 09:00", "2025-06-30 18:00",
  "https://byeolbat.example/cubesat-cup/2025/student", "별밭우주연구소",
  ["space", "cubesat", "student", "design"],
  "별밭우주연구소가 주최하는 1U 큐브샛 설계 경진대회 학생 부문입니다. "
  "대학생 3~6명 팀이 임무 설계서와 열·전력 해석 보고서를 제출하며, 대상팀에게는 상금 800만 원과 성층권 풍선 시험 기회가 주어집니다. "
  "최종 발표는 대전 별밭우주연구소 대강당에서 진행됩니다.")

c("D25g", "byeolbat", "byeolbat-cubesat", 2025, "일반",
  "Byeolbat CubeSat Design Cup 2025 (Open Division)",
  "2025-03-03 09:00", "2025-06-30 18:00",
  "https://byeolbat.example/cubesat-cup/2025/open", "Byeolbat Space Institute",
  ["space", "cubesat", "design"],
  "Open division of the 3rd Byeolbat CubeSat Design Cup for startups, researchers and hobbyists. "
  "Teams of up to 8 design a 3U CubeSat mission using Gwedochang satellite imagery. "
  "The winner receives KRW 20 million and a review for a ride-share launch slot.")

c("D26s", "byeolbat", "byeolbat-cubesat", 2026, "학생",
  "제4회 별밭 큐브샛 설계 경진대회 학생 부문",
  "2026-03-02 09:00", "2026-06-30 18:00",
  "https://byeolbat.example/cubesat-cup/2026/student", "별밭우주연구소",
  ["space", "cubesat", "student", "design"],
  "2026년 학생 부문은 설계 대상이 2U 큐브샛으로 커졌습니다. "
  "대학생 3~6명 팀이 참가하며 대상 상금은 1,000만 원입니다. "
  "최종 발표는 7월 10일 대전 별밭우주연구소 대강당에서 열립니다.")

c("D26g", "byeolbat", "byeolbat-cubesat", 2026, "일반",
  "제4회 별밭 CubeSat 설계 경진대회 일반 부문",
  "2026-03-02 09:00", "2026-06-30 18:00",
  "https://byeolbat.example/cubesat-cup/2026/open", "별밭우주연구소",
  ["space", "cubesat", "design"],
  "일반 부문은 기업·연구소·동호회 누구나 참가할 수 있으며 3U 큐브샛 임무를 설계합니다. "
  "팀 인원은 최대 8명, 대상 상금은 2,500만 원입니다. "
  "대회 기간 동안 궤도창 위성영상 API 사용료가 면제됩니다.")

c("D27g", "byeolbat", "byeolbat-cubesat", 2027, "일반",
  "Byeolbat CubeSat Design Cup 2027 - Open Division",
  "2027-02-01 09:00", "2027-05-31 18:00",
  "https://byeolbat.example/cubesat-cup/2027/open", "Byeolbat Space Institute",
  ["space", "cubesat", "design"],
  "The 5th edition's open division opened early on February 1, 2027 and accepts mission proposals until May 31. "
  "Teams of up to 8; the grand prize is KRW 30 million plus a launch-slot partnership with Eunha Launch Services.")

c("D27s", "byeolbat", "byeolbat-cubesat", 2027, "학생",
  "제5회 별밭 큐브샛 설계 경진대회 학생 부문",
  "2027-03-02 09:00", "2027-06-30 18:00",
  "https://byeolbat.example/cubesat-cup/2027/student", "별밭우주연구소",
  ["space", "cubesat", "student", "design"],
  "2027년 학생 부문은 3월 2일부터 6월 30일까지 진행됩니다. "
  "올해부터 고등학생 팀도 참가할 수 있고, 팀은 3~6명입니다. "
  "대상 상금은 1,200만 원이며 최종 발표는 7월 대전 별밭우주연구소에서 열립니다.")

# --------------------------------------------------------------------------
# Series E - 두레 핀테크 아이디어톤 / Dure Fintech Ideathon
# --------------------------------------------------------------------------
c("E25", "dure", "dure-ideathon", 2025, None,
  "Dure Fintech Ideathon 2025",
  "2025-11-22 10:00", "2025-11-23 17:00",
  "https://durepay.example/ideathon/2025", "DurePay",
  ["ideathon", "fintech", "offline"],
  "Two-day ideathon by DurePay at Dure Tower in Yeouido, Seoul, focused on financial services for small merchants. "
  "Teams of 3-5 pitch ideas using the DurePay Open API v3 sandbox. "
  "The total prize pool is KRW 15 million.")

c("E26", "dure", "dure-ideathon", 2026, None,
  "2026 두레 핀테크 아이디어톤",
  "2026-11-21 10:00", "2026-11-22 17:00",
  "https://durepay.example/ideathon/2026", "두레페이",
  ["ideathon", "fintech", "offline"],
  "두레페이가 여의도 두레타워에서 이틀 동안 여는 핀테크 아이디어톤입니다. "
  "올해 주제는 '고령층을 위한 쉬운 결제'이며, 3~5인 팀이 두레페이 오픈 API v4 샌드박스로 시연합니다. "
  "총상금은 2,000만 원이고 대상은 800만 원입니다.")

c("E27", "dure", "dure-ideathon", 2027, None,
  "두레 Fintech Ideathon 2027 봄",
  "2027-03-27 10:00", "2027-03-28 17:00",
  "https://durepay.example/ideathon/2027", "두레페이",
  ["ideathon", "fintech", "offline"],
  "2027년 아이디어톤은 처음으로 봄에 열리며 3월 27~28일 부산 문현 두레캠퍼스에서 진행됩니다. "
  "주제는 외국인 관광객의 결제 경험 개선이고, 팀은 3~5명입니다. "
  "총상금은 2,500만 원이며 참가 신청은 3월 12일까지 받습니다.")

# --------------------------------------------------------------------------
# Series F - 철길 공공데이터 공모전 / Cheolgil Open Data Contest (Dosi Rail)
# --------------------------------------------------------------------------
c("F25", "dosirail", "cheolgil-opendata", 2025, None,
  "2025 철길 공공데이터 활용 공모전",
  "2025-06-02 09:00", "2025-08-29 18:00",
  "https://dosirail.example/opendata-contest/2025", "도시철길공사",
  ["opendata", "transit", "data"],
  "도시철길공사가 공개한 역별 혼잡도·환승 데이터로 서비스를 기획하는 공모전입니다. "
  "학생과 일반인 모두 개인 또는 4인 이하 팀으로 참가할 수 있습니다. "
  "대상 500만 원을 포함해 총 12팀을 시상합니다.")

c("F26", "dosirail", "cheolgil-opendata", 2026, None,
  "Cheolgil Open Data Contest 2026",
  "2026-06-01 09:00", "2026-08-31 18:00",
  "https://dosirail.example/opendata-contest/2026", "Dosi Rail Corporation",
  ["opendata", "transit", "data"],
  "Dosi Rail Corporation's yearly open data contest. "
  "This year adds real-time platform crowding and elevator outage feeds to the data set. "
  "Individuals or teams of up to 4 may enter; the grand prize is KRW 7 million with 15 awards in total.")

c("F27", "dosirail", "cheolgil-opendata", 2027, None,
  "2027 철길 공공데이터 공모전 (겨울)",
  "2027-01-04 09:00", "2027-02-12 18:00",
  "https://dosirail.example/opendata-contest/2027", "도시철길공사",
  ["opendata", "transit", "data"],
  "2027년에는 겨울 시즌 공모전으로 1월 4일부터 2월 12일까지 접수합니다. "
  "역사 안 한파 쉼터 위치와 열차 지연 데이터를 새로 공개하며, 4인 이하 팀이 참가할 수 있습니다. "
  "대상 상금은 700만 원입니다.")

# --------------------------------------------------------------------------
# Series G - 새싹 주니어 코딩대회 / Saessak Junior Coding Contest (예선 / 본선)
# --------------------------------------------------------------------------
c("G25q", "saessak", "saessak-junior", 2025, "예선",
  "2025 새싹 주니어 코딩대회 예선",
  "2025-04-12 10:00", "2025-04-12 13:00",
  "https://saessak.example/junior/2025/qualifier", "새싹코딩재단",
  ["education", "coding", "student", "online"],
  "새싹코딩재단이 주최하는 초·중·고 학생 대상 알고리즘 대회의 온라인 예선입니다. "
  "개인전으로 3시간 동안 6문제를 풀며, 파이썬·C++·자바를 사용할 수 있습니다. "
  "학년군별 상위 30명이 본선에 진출합니다.")

c("G25f", "saessak", "saessak-junior", 2025, "본선",
  "Saessak Junior Coding Contest 2025 Finals",
  "2025-05-24 10:00", "2025-05-24 14:00",
  "https://saessak.example/junior/2025/finals", "Saessak Coding Foundation",
  ["education", "coding", "student", "offline"],
  "In-person finals at Saessak Coding Center in Gwangju for the top 30 students of each grade band. "
  "It is an individual contest with 7 problems in 4 hours. "
  "The top prize is a laptop and a KRW 1 million scholarship.")

c("G26q", "saessak", "saessak-junior", 2026, "예선",
  "Saessak Junior Coding Contest 2026 Qualifier",
  "2026-04-11 10:00", "2026-04-11 13:00",
  "https://saessak.example/junior/2026/qualifier", "Saessak Coding Foundation",
  ["education", "coding", "student", "online"],
  "Online qualifier for elementary, middle and high school students: individual, 3 hours, 6 problems. "
  "Python, C++ and Java are allowed and, new this year, block coding for grades 3-4. "
  "The top 30 of each grade band advance to the finals in Gwangju.")

c("G26f", "saessak", "saessak-junior", 2026, "본선",
  "2026 새싹 주니어 코딩대회 본선",
  "2026-05-23 10:00", "2026-05-23 14:00",
  "https://saessak.example/junior/2026/finals", "새싹코딩재단",
  ["education", "coding", "student", "offline"],
  "광주 새싹코딩센터에서 열리는 오프라인 본선으로, 학년군별 예선 상위 30명이 참가합니다. "
  "4시간 동안 7문제를 풀며 대상에게는 노트북과 장학금 150만 원이 주어집니다.")

c("G27q", "saessak", "saessak-junior", 2027, "예선",
  "2027 새싹 주니어 코딩대회 예선",
  "2027-04-10 10:00", "2027-04-10 13:00",
  "https://saessak.example/junior/2027/qualifier", "새싹코딩재단",
  ["education", "coding", "student", "online"],
  "2027년 예선은 4월 10일 온라인으로 열리며, 참가 신청은 3월 2일부터 받습니다. "
  "개인전 3시간 6문제 방식이고 학년군별 상위 30명이 5월 광주 본선에 진출합니다.")

# --------------------------------------------------------------------------
# One-off contests - ended
# --------------------------------------------------------------------------
c("O1", "deulmaru", None, 2025, None,
  "들마루 스마트팜 데이터 챌린지",
  "2025-04-01 09:00", "2025-05-31 23:59",
  "https://deulmaru.example/challenge/smartfarm-2025", "들마루농업기술원",
  ["agritech", "data", "ai", "online"],
  "들마루농업기술원이 충남 논산 시험온실 6곳의 온습도·양액 센서 데이터를 공개하고 딸기 수확량 예측 모델을 공모합니다. "
  "개인 또는 3인 이하 팀이 참가하며 평가 지표는 MAE, 1등 상금은 600만 원입니다. "
  "수상팀은 들마루 팜센서 키트 10세트를 지원받습니다.")

c("O2", "garam", None, 2025, None,
  "Tidal Sound Game Jam 2025",
  "2025-06-20 18:00", "2025-06-22 18:00",
  "https://padogames.example/jam/2025", "Pado Games",
  ["gamejam", "game", "music", "online"],
  "48-hour online game jam co-hosted by Garam Sound Lab and indie studio Pado Games. "
  "The theme is announced at kickoff and every game must use adaptive music through Sorigyeol SDK. "
  "Teams of up to 4; the best game wins KRW 3 million.")

c("O3", "byeolbat", None, 2025, None,
  "궤도창 위성영상 분석 챌린지",
  "2025-09-15 09:00", "2025-11-30 23:59",
  "https://byeolbat.example/gwedochang/challenge-2025", "별밭우주연구소",
  ["space", "ai", "vision", "online"],
  "별밭우주연구소의 궤도창 플랫폼이 제공하는 남해안 위성영상으로 양식장 영역을 분할하는 컴퓨터 비전 대회입니다. "
  "평가 지표는 mIoU이며 팀은 최대 5명까지 구성할 수 있습니다. "
  "총상금은 3,000만 원입니다.")

c("O4", "eungyeol", None, 2025, None,
  "Pasukkun Bug Bounty Sprint",
  "2025-12-01 00:00", "2025-12-31 23:59",
  "https://eungyeol.example/pasukkun/bounty-2025", "Eungyeol Security",
  ["security", "bugbounty", "opensource", "online"],
  "A one-month bug bounty sprint on Pasukkun, Eungyeol Security's open-source vulnerability scanner. "
  "Valid reports are paid between KRW 200,000 and 5 million depending on severity. "
  "Only individuals may take part.")

c("O5", "haesol", None, 2026, None,
  "2026 해양 쓰레기 AI 탐지 경진대회",
  "2026-02-02 09:00", "2026-03-31 23:59",
  "https://haesol.example/challenge/marine-litter-2026", "해솔해양데이터재단",
  ["ocean", "ai", "vision", "online"],
  "드론으로 촬영한 부산 연안 해변 사진 1만 2천 장에서 해양 쓰레기를 찾아내는 객체 탐지 대회로, 해솔해양데이터재단과 영도항만이 공동 주최합니다. "
  "평가 지표는 mAP@0.5이며 팀은 최대 4명입니다. "
  "1등 상금은 1,000만 원입니다.")

c("O6", "dosirail", None, 2026, None,
  "Open Rail Hack Day",
  "2026-04-25 09:00", "2026-04-25 21:00",
  "https://dosirail.example/hackday-2026", "Dosi Rail Corporation",
  ["hackathon", "transit", "opendata", "offline"],
  "One-day hack day at Dosi Rail Corporation's headquarters in Guro, Seoul, for 100 pre-registered participants. "
  "Teams are formed on site and build with the new Cheolgil real-time arrival API. "
  "Meals are provided and prizes total KRW 2 million.")

c("O7", "dure", None, 2026, None,
  "두레페이 오픈API 개발자 컨테스트",
  "2026-03-16 09:00", "2026-05-15 18:00",
  "https://durepay.example/dev-contest-2026", "두레페이",
  ["fintech", "api", "online"],
  "두레페이 오픈 API v4 출시를 기념해 가맹점 정산·전자영수증 기능을 활용한 앱을 공모합니다. "
  "개인 또는 3인 이하 팀이 참가하며 대상 상금은 500만 원입니다. "
  "우수작은 두레페이 앱 마켓에 입점할 기회를 얻습니다.")

c("O8", "deulmaru", None, 2026, None,
  "Furrow Robotics Challenge 2026",
  "2026-09-19 09:00", "2026-09-20 17:00",
  "https://deulmaru.example/furrow-2026", "Deulmaru AgriTech Institute",
  ["robotics", "agritech", "offline"],
  "Outdoor robotics challenge at Deulmaru AgriTech Institute's test field in Nonsan, South Chungcheong. "
  "Teams of 3-6 build autonomous weeding robots that must clear a 20-metre strawberry row. "
  "The first prize is KRW 15 million.")

c("O9", "garam", None, 2026, None,
  "소리마루 Live Coding 페스티벌",
  "2026-06-13 14:00", "2026-06-13 21:00",
  "https://garamsound.example/livecoding-2026", "가람사운드랩",
  ["music", "livecoding", "offline"],
  "서울 성수 소리마루홀에서 열리는 라이브코딩 음악 공연 겸 경연입니다. "
  "참가자는 15분 동안 코드로 실시간 음악을 연주하며, 관객 투표와 심사위원 점수를 합산해 순위를 정합니다. "
  "1등 상금은 200만 원입니다.")

c("O10", "haesol", None, 2026, None,
  "Blue Carbon Data Sprint",
  "2026-08-03 09:00", "2026-08-16 23:59",
  "https://haesol.example/sprint/blue-carbon-2026", "Haesol Marine Data Foundation",
  ["ocean", "data", "climate", "online"],
  "Two-week remote sprint to estimate seagrass blue-carbon stocks from Mulmaru API sensor data and Gwedochang imagery. "
  "Teams of up to 3; the top three teams share KRW 9 million.")

c("O11", "dure", None, 2026, None,
  "연말 코드 정산 해커톤",
  "2026-12-12 10:00", "2026-12-13 16:00",
  "https://durepay.example/yearend-hackathon-2026", "두레페이",
  ["hackathon", "fintech", "offline"],
  "두레페이가 주최하는 연말 해커톤으로 12월 12~13일 여의도 두레타워에서 무박 2일로 진행됩니다. "
  "주제는 '소상공인 연말정산 자동화'이며 3~4인 팀이 참가합니다. "
  "총상금은 1,200만 원입니다.")

c("O12", "byeolbat", None, 2026, None,
  "Winter Orbit Hackathon",
  "2026-12-18 18:00", "2026-12-20 15:00",
  "https://byeolbat.example/winter-orbit-hackathon", "Byeolbat Space Institute",
  ["hackathon", "space", "offline"],
  "December hackathon on satellite telemetry held at Byeolbat Space Institute in Daejeon. "
  "Teams of 2-5 build ground-station dashboards from anonymised CubeSat telemetry. "
  "The prize pool is KRW 10 million.")

c("O13", "saessak", None, 2026, None,
  "새싹 겨울방학 코딩캠프 챌린지",
  "2026-12-28 09:00", "2027-01-17 23:59",
  "https://saessak.example/winter-camp-2026", "새싹코딩재단",
  ["education", "coding", "online"],
  "초등 5학년부터 중학 3학년까지를 위한 겨울방학 온라인 코딩 챌린지로, 3주 동안 매주 미션을 해결합니다. "
  "개인 참가이며 완주자 전원에게 수료증을, 상위 50명에게 코딩 도서를 드립니다.")

c("O14", "deulmaru", None, 2027, None,
  "Deulmaru FarmSensor Kit 해커톤",
  "2027-01-23 10:00", "2027-01-24 12:00",
  "https://deulmaru.example/farmsensor-hackathon-2027", "들마루농업기술원",
  ["hackathon", "agritech", "iot", "offline"],
  "들마루 팜센서 키트 v2를 현장에서 나눠 주고 24시간 안에 스마트팜 서비스를 만드는 해커톤입니다. "
  "장소는 충남 논산 들마루농업기술원 교육관이며 팀은 2~4명입니다. "
  "대상 상금은 500만 원입니다.")

c("O15", "eungyeol", None, 2027, None,
  "PromptShield Red Team Challenge",
  "2027-02-01 10:00", "2027-02-07 23:59",
  "https://eungyeol.example/promptshield/redteam-2027", "Eungyeol Security",
  ["security", "ai", "redteam", "online"],
  "Week-long online red-teaming challenge against Eungyeol Security's PromptShield guardrail for LLM apps. "
  "Individuals or teams of up to 3 submit jailbreak and prompt-injection findings. "
  "The top finder earns KRW 5 million.")

# --------------------------------------------------------------------------
# One-off contests - ongoing on 2027-02-10
# --------------------------------------------------------------------------
c("N1", "haesol", None, 2027, None,
  "물마루 API 3.0 베타 테스트 챌린지",
  "2027-01-11 10:00", "2027-02-10 18:00",
  "https://haesol.example/mulmaru/beta-challenge", "해솔해양데이터재단",
  ["ocean", "api", "beta", "online"],
  "물마루 API 3.0 베타를 미리 써 보고 버그와 개선 의견을 제출하는 챌린지입니다. "
  "유효한 버그 리포트 1건당 5만 원 상당의 포인트를 지급하며 최다 제보자에게 100만 원을 드립니다. "
  "접수는 2월 10일 오후 6시에 마감됩니다.")

c("N2", "padogames", None, 2027, None,
  "Pado Games Audio Jam",
  "2027-01-28 18:00", "2027-02-11 23:59",
  "https://padogames.example/audio-jam-2027", "Pado Games",
  ["gamejam", "game", "music", "online"],
  "Two-week online jam by indie studio Pado Games: make a short game whose soundtrack reacts to player movement. "
  "Solo or teams of up to 3; Sorigyeol SDK 5.0 licences are provided free. "
  "The best entry wins KRW 2 million and a publishing-deal review.")

c("N3", "dure", None, 2027, None,
  "두레페이 간편결제 UX 공모전",
  "2027-01-05 09:00", "2027-02-15 18:00",
  "https://durepay.example/ux-contest-2027", "두레페이",
  ["fintech", "ux", "design", "online"],
  "두레페이 앱의 간편결제 흐름을 개선하는 UX 설계안을 공모합니다. "
  "개인 또는 2인 팀이 클릭 가능한 프로토타입과 사용성 테스트 보고서를 제출하며, 대상 상금은 300만 원입니다.")

c("N4", "byeolbat", None, 2027, None,
  "Gwedochang Wildfire Watch Challenge",
  "2026-12-01 09:00", "2027-02-17 23:59",
  "https://byeolbat.example/gwedochang/wildfire-watch", "Byeolbat Space Institute",
  ["space", "ai", "vision", "online"],
  "Detect burn scars in Gwedochang satellite imagery of forests in Gangwon province. "
  "Teams of up to 4 are ranked by F1 score on a hidden test set. "
  "The total prize pool is KRW 12 million.")

c("N5", "haesol", None, 2027, None,
  "2027 스마트 양식 데이터톤",
  "2027-01-20 09:00", "2027-02-19 23:59",
  "https://haesol.example/datathon/aquaculture-2027", "해솔해양데이터재단",
  ["ocean", "data", "aquaculture", "online"],
  "해솔해양데이터재단과 통영바다목장협동조합이 함께 여는 데이터톤으로, 굴 양식장의 수온·용존산소 데이터로 폐사 위험을 예측합니다. "
  "팀은 최대 4명이며 1등 상금은 800만 원입니다. "
  "최종 발표는 2월 26일 통영에서 오프라인으로 진행됩니다.")

c("N6", "codemulgyeol", None, 2027, None,
  "코드물결 기술 블로그 공모전",
  "2027-01-02 09:00", "2027-02-21 23:59",
  "https://codemulgyeol.example/contest/blog-2027", "코드물결",
  ["writing", "community", "online"],
  "IT 매체 코드물결이 여는 기술 블로그 글쓰기 공모전으로, 해커톤·CTF 참가 후기나 트러블슈팅 경험을 담은 글을 받습니다. "
  "개인 참가만 가능하며 대상 100만 원, 우수상 5명에게 각 30만 원을 드립니다.")

c("N7", "garam", None, 2027, None,
  "Sorigyeol Plugin Marathon",
  "2027-02-10 10:00", "2027-03-10 23:59",
  "https://garamsound.example/plugin-marathon-2027", "Garam Sound Lab",
  ["music", "sdk", "plugin", "online"],
  "Month-long online marathon to build audio effect plug-ins with Sorigyeol SDK 5.0. "
  "Solo developers or teams of 2 join weekly check-ins every Wednesday. "
  "First prize is KRW 5 million plus featured placement in Garam Sound Lab's plug-in store.")

c("N8", "nodc", None, 2027, None,
  "국가데이터개방위원회 청년 데이터 챌린지",
  "2026-11-02 09:00", "2027-03-31 18:00",
  "https://nodc.example/youth-data-challenge", "국가데이터개방위원회",
  ["data", "opendata", "youth", "online"],
  "국가데이터개방위원회가 만 19~34세 청년을 대상으로 여는 장기 데이터 분석 챌린지입니다. "
  "교통·해양·농업 공공데이터 중 하나를 골라 분석 보고서를 제출하며, 팀은 1~3명입니다. "
  "총상금은 5,000만 원이고 시상식은 4월 서울에서 열립니다.")

c("N9", "eungyeol", None, 2027, None,
  "Eungyeol Secure Coding League",
  "2027-01-05 09:00", "2027-03-30 23:59",
  "https://eungyeol.example/secure-coding-league", "Eungyeol Security",
  ["security", "coding", "league", "online"],
  "A three-month secure-coding league: on the first Tuesday of each month a new vulnerable codebase in Go, Python and Rust is released. "
  "Individuals earn leaderboard points for fixes that pass hidden exploit tests. "
  "The season champion wins KRW 3 million.")

c("N10", "deulmaru", None, 2027, None,
  "들마루 드론 방제 아이디어 공모전",
  "2027-02-03 09:00", "2027-03-05 18:00",
  "https://deulmaru.example/drone-idea-2027", "들마루농업기술원",
  ["agritech", "drone", "idea", "online"],
  "논산·익산 지역 논에 드론 방제를 적용하는 아이디어를 공모합니다. "
  "농업계 고등학교·대학 학생과 일반인 누구나 참가할 수 있으며 팀은 최대 4명, 대상 상금은 400만 원입니다.")

c("N11", "haesol", None, 2027, None,
  "Mulmaru Mobile App Awards 2027",
  "2027-01-18 09:00", "2027-03-12 18:00",
  "https://haesol.example/mulmaru/app-awards-2027", "Haesol Marine Data Foundation",
  ["ocean", "mobile", "api", "online"],
  "Build a mobile app for anglers, divers or surfers on top of Mulmaru API. "
  "Teams of up to 3; the grand prize is KRW 6 million. "
  "Finalists demo their apps at Haesol Center, Yeongdo, on March 27.")

c("N12", "saessak", None, 2027, None,
  "새싹 x 가람 Kids Music Coding 공모전",
  "2027-01-25 09:00", "2027-03-05 18:00",
  "https://saessak.example/kids-music-coding-2027", "새싹코딩재단",
  ["education", "music", "coding", "online"],
  "새싹코딩재단과 가람사운드랩이 함께 여는 초등학생 음악 코딩 공모전입니다. "
  "블록 코딩으로 30초 이상의 곡을 만들어 제출하며 개인 참가만 가능합니다. "
  "대상에게는 태블릿과 상금 50만 원이 주어집니다.")

c("N13", "dure", None, 2027, None,
  "DurePay x 은결 오픈뱅킹 보안 챌린지",
  "2027-02-08 09:00", "2027-02-28 23:59",
  "https://durepay.example/security-challenge-2027", "두레페이",
  ["fintech", "security", "bugbounty", "online"],
  "두레페이 오픈 API v4 샌드박스를 대상으로 한 3주간의 보안 점검 챌린지로, 운영은 은결보안이 맡습니다. "
  "인증·토큰 관련 취약점 제보에는 건당 최대 1,000만 원을 지급하며 개인 또는 2인 팀으로 참가합니다.")

c("N14", "dosirail", None, 2027, None,
  "철길 무장애 이동 아이디어 공모",
  "2027-01-26 09:00", "2027-02-26 18:00",
  "https://dosirail.example/barrier-free-2027", "도시철길공사",
  ["transit", "accessibility", "idea", "online"],
  "휠체어 이용자와 고령자를 위한 지하철 환승 안내 아이디어를 공모합니다. "
  "엘리베이터 고장 실시간 데이터를 활용하면 가점이 있으며 개인 또는 3인 이하 팀, 대상 상금은 300만 원입니다.")

# --------------------------------------------------------------------------
# One-off contests - upcoming after 2027-02-10
# --------------------------------------------------------------------------
c("U1", "haesol", None, 2027, None,
  "물마루 데이터 시각화 주말 챌린지",
  "2027-02-13 10:00", "2027-02-14 22:00",
  "https://haesol.example/mulmaru/dataviz-weekend", "해솔해양데이터재단",
  ["ocean", "dataviz", "online"],
  "주말 이틀 동안 물마루 API 2.1의 조위·수온 데이터를 시각화하는 온라인 챌린지입니다. "
  "개인 참가이며 결과물은 웹 대시보드 링크로 제출하고, 상위 3명에게 각 50만 원을 드립니다.")

c("U2", "garam", None, 2027, None,
  "Garam Beat Battle Online",
  "2027-02-16 10:00", "2027-02-28 23:59",
  "https://garamsound.example/beat-battle-2027", "Garam Sound Lab",
  ["music", "sdk", "online"],
  "Online beat-making battle judged by Garam Sound Lab producers. "
  "Every entry must be built from stems separated with Sorigyeol SDK 5.0. "
  "Solo entries only; the winner receives KRW 1.5 million.")

c("U3", "eungyeol", None, 2027, None,
  "2027 은결 주니어 보안캠프 CTF",
  "2027-02-20 10:00", "2027-02-21 17:00",
  "https://eungyeol.example/junior-camp-2027", "은결보안",
  ["ctf", "security", "education", "offline"],
  "중·고등학생을 위한 입문용 CTF로 서울 마곡 은결홀에서 이틀 동안 열립니다. "
  "2인 1팀으로 참가하며 첫날은 보안 기초 강의, 둘째 날은 6시간 CTF가 진행됩니다. "
  "상위 3팀에게 장학금 총 300만 원을 드립니다.")

c("U4", "byeolbat", None, 2027, None,
  "Byeolbat Ground Station Makers Cup",
  "2027-03-03 09:00", "2027-04-30 18:00",
  "https://byeolbat.example/ground-station-cup", "Byeolbat Space Institute",
  ["space", "hardware", "radio"],
  "Build a low-cost ground station that can receive telemetry from Byeolbat's BS-2 CubeSat. "
  "Teams of 2-5 living in Korea may enter and must log at least three successful passes. "
  "The grand prize is KRW 8 million.")

c("U5", "dure", None, 2027, None,
  "두레 청소년 금융 앱 공모전",
  "2027-03-14 09:00", "2027-05-14 18:00",
  "https://durepay.example/youth-app-2027", "두레페이",
  ["fintech", "education", "app"],
  "두레페이가 고등학생과 대학 1~2학년을 대상으로 용돈 관리·금융 교육 앱 아이디어를 공모합니다. "
  "개인 또는 3인 이하 팀이 참가하며, 대상 300만 원과 두레페이 여름 인턴십 면접 기회를 드립니다.")

c("U6", "deulmaru", None, 2027, None,
  "Deulmaru Greenhouse AI Cup 2027",
  "2027-03-21 09:00", "2027-05-20 23:59",
  "https://deulmaru.example/greenhouse-ai-cup-2027", "Deulmaru AgriTech Institute",
  ["agritech", "ai", "data", "online"],
  "Predict cucumber yield 14 days ahead from two seasons of greenhouse sensor logs collected with the FarmSensor Kit. "
  "Teams of up to 4 are scored by RMSE. "
  "The total prize pool is KRW 10 million.")

c("U7", "dosirail", None, 2027, None,
  "철길 역사 안전 AI 챌린지",
  "2027-04-05 09:00", "2027-06-04 18:00",
  "https://dosirail.example/station-safety-ai", "도시철길공사",
  ["transit", "ai", "vision", "online"],
  "익명화된 역사 CCTV 영상으로 승강장 혼잡과 추락 위험 상황을 감지하는 영상 AI 대회입니다. "
  "팀은 최대 4명이며 평가는 F1 점수로 합니다. "
  "총상금은 4,000만 원입니다.")

c("U8", "garam", None, 2027, None,
  "Orbit Sound Art Hackathon",
  "2027-04-24 10:00", "2027-04-25 17:00",
  "https://garamsound.example/orbit-sound-art", "Garam Sound Lab",
  ["hackathon", "music", "space", "offline"],
  "Garam Sound Lab and Byeolbat Space Institute co-host a hackathon that turns satellite telemetry into music. "
  "It takes place at Sorimaru Hall in Seongsu, Seoul, for teams of 2-4. "
  "The grand prize is KRW 5 million.")

c("U9", "haesol", None, 2027, None,
  "해솔 연안 안전 드론 경진대회",
  "2027-05-22 09:00", "2027-05-23 17:00",
  "https://haesol.example/drone-rescue-2027", "해솔해양데이터재단",
  ["ocean", "drone", "robotics", "offline"],
  "부산 다대포 해변에서 열리는 드론 구조 경진대회로, 자율 비행 드론이 구명부이를 목표 지점에 떨어뜨리는 정확도와 시간을 겨룹니다. "
  "팀은 3~5명이며 1등 상금은 1,000만 원입니다.")

c("U10", "dosirail", None, 2027, None,
  "철길 Transit UX 여름 해커톤",
  "2027-06-19 10:00", "2027-06-20 16:00",
  "https://dosirail.example/summer-hackathon-2027", "도시철길공사",
  ["hackathon", "transit", "ux", "offline"],
  "도시철길공사 구로 본사에서 열리는 무박 2일 해커톤으로, 역 안내 앱의 사용자 경험 개선이 주제입니다. "
  "팀은 3~5명이며 대상 상금은 600만 원, 참가 신청은 5월 31일까지입니다.")

c("U11", "saessak", None, 2027, None,
  "Saessak Summer Code Camp Cup",
  "2027-07-20 09:00", "2027-07-24 17:00",
  "https://saessak.example/summer-camp-cup-2027", "Saessak Coding Foundation",
  ["education", "coding", "game", "offline"],
  "Five-day summer camp and contest for middle-school students at Saessak Coding Center in Gwangju. "
  "Pairs build a small game in Python; 60 students are selected from applications.")

c("U12", "byeolbat", None, 2028, None,
  "은하발사 x 별밭 2028 Student Payload Challenge",
  "2028-01-10 09:00", "2028-06-30 18:00",
  "https://byeolbat.example/payload-2028", "별밭우주연구소",
  ["space", "student", "payload"],
  "2028년 성층권 풍선에 실을 학생 탑재체를 공모하는 장기 챌린지로, 별밭우주연구소와 은하발사서비스가 함께 주최합니다. "
  "고등학생·대학생 3~5인 팀이 참가하며, 선정된 4팀은 탑재체 제작비를 각 1,500만 원씩 지원받습니다. "
  "접수는 2028년 1월 10일에 시작합니다.")

c("U13", "dure", None, 2027, None,
  "DurePay Open API v4.1 Launch Hackathon",
  "2027-04-03 10:00", "2027-04-04 16:00",
  "https://durepay.example/v41-hackathon", "DurePay",
  ["hackathon", "fintech", "api", "offline"],
  "Build with the new recurring-payment endpoints of DurePay Open API v4.1 at Dure Tower, Yeouido. "
  "Teams of 2-4; prizes total KRW 6 million.")

c("U14", "eungyeol", None, 2027, None,
  "파수꾼 오픈소스 기여 대회",
  "2027-05-03 09:00", "2027-06-30 23:59",
  "https://eungyeol.example/pasukkun/contrib-2027", "은결보안",
  ["security", "opensource", "online"],
  "은결보안의 오픈소스 취약점 스캐너 파수꾼(Pasukkun)에 탐지 규칙과 버그 수정을 기여하는 대회입니다. "
  "병합된 PR의 수와 난이도로 점수를 매기며 개인 참가만 가능합니다. "
  "1등은 300만 원을 받고, 기여자 전원에게 기념품을 드립니다.")
