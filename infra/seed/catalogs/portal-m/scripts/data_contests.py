# Contest data for the "portal-m" catalog. Standard library only.
# Each contest: (key, org, title, start, end, url_path, tags, description)
# start/end: "YYYY-MM-DD" (start defaults to 09:00, end to 18:00) or "YYYY-MM-DD HH:MM".

ORGS = {
    # key: (Korean name, English name, domain)
    "mulgyeol": ("물결재단", "Mulgyeol Foundation", "mulgyeol.example"),
    "garam": ("가람시큐리티", "Garam Security", "garamsec.example"),
    "daon": ("다온로보틱스", "Daon Robotics", "daonrobotics.example"),
    "gureum": ("구름플레이", "GureumPlay", "gureumplay.example"),
    "hanbitbio": ("한빛바이오데이터", "Hanbit BioData", "hanbitbio.example"),
    "ceii": ("기후에너지혁신원", "Climate Energy Innovation Institute", "ceii.example"),
    "byeolbit": ("별빛DB 커뮤니티", "ByeolbitDB Community", "byeolbitdb.example"),
    "nsdc": ("국가안전데이터센터", "National Safety Data Center", "safetydata.example"),
    "baeumteo": ("배움터", "Baeumteo", "baeumteo.example"),
    "nuriport": ("누리항만공사", "Nuri Port Authority", "nuriport.example"),
    "codenuri": ("코드누리", "CodeNuri", "codenuri.example"),
    "haemil": ("해밀시", "Haemil City", "haemil.example"),
    "hanbithosp": ("한빛대학교병원", "Hanbit University Hospital", "hanbithospital.example"),
    "medibridge": ("메디브릿지", "MediBridge", "medibridge.example"),
    "nbia": ("국가바이오정보원", "National Bio Information Agency", "nbia.example"),
    "chainnoeul": ("체인노을", "ChainNoeul", "chainnoeul.example"),
    "fastroad": ("빠른길물류", "FastRoad Logistics", "fastroad.example"),
    "haemilfire": ("해밀소방본부", "Haemil Fire Headquarters", "haemilfire.example"),
    "robotopenlab": ("로봇오픈랩", "RobotOpenLab", "robotopenlab.example"),
    "byeolmuri": ("별무리게임즈", "Byeolmuri Games", "byeolmuri.example"),
    "chorok": ("초록바람", "Chorok Baram", "chorokbaram.example"),
    "mirdata": ("미르데이터", "Mir Data", "mirdata.example"),
    "keda": ("한국교육데이터협회", "Korea Education Data Association", "keda.example"),
}

CONTESTS = [
    # ---- Mulgyeol Ocean Hackathon / 물결 오션 해커톤 (yearly, 예선/본선) ----
    ("A1", "mulgyeol", "2025 물결 오션 해커톤 예선", "2025-05-12", "2025-06-01 23:59",
     "hackathon/2025/qualifier", ["hackathon", "ocean", "logistics", "data"],
     "물결재단(Mulgyeol Foundation)이 주최하는 해양·항만 데이터 해커톤의 온라인 예선입니다. "
     "3~5인 팀이 선박 입출항 데이터를 활용한 아이디어 기획서와 프로토타입을 제출하며, 상위 40팀이 본선에 진출합니다. "
     "참가비는 없습니다."),
    ("A2", "mulgyeol", "2025 Mulgyeol Ocean Hackathon 본선", "2025-07-18 10:00", "2025-07-20 17:00",
     "hackathon/2025/finals", ["hackathon", "ocean", "logistics", "data"],
     "예선을 통과한 40팀이 누리항 국제여객터미널에서 48시간 동안 겨루는 2025 물결 오션 해커톤의 본선입니다. "
     "The grand prize is KRW 10 million, and mentors from Nuri Port Authority join on site. "
     "숙식은 주최 측이 제공합니다."),
    ("A3", "mulgyeol", "2026 물결 오션 해커톤 예선", "2026-05-11", "2026-05-31 23:59",
     "hackathon/2026/qualifier", ["hackathon", "ocean", "logistics", "data"],
     "2026 물결 오션 해커톤의 온라인 예선으로, 이번 대회 주제는 '탄소 없는 항만 물류'입니다. "
     "3~5인 팀이 기획서와 5분 데모 영상을 제출하고, 상위 40팀이 7월 본선에 진출합니다."),
    ("A4", "mulgyeol", "2026 Mulgyeol Ocean Hackathon Finals (본선)", "2026-07-17 10:00", "2026-07-19 17:00",
     "hackathon/2026/finals", ["hackathon", "ocean", "logistics", "data"],
     "The finals of the 2026 Mulgyeol Ocean Hackathon bring the top 40 qualifier teams to the Nuri Port "
     "International Passenger Terminal for 48 hours of building. "
     "The grand prize is KRW 15 million, with two excellence awards of KRW 5 million each. "
     "Meals and lodging are provided by the Mulgyeol Foundation."),
    ("A5", "mulgyeol", "2027 물결 오션 해커톤 예선", "2027-05-10", "2027-05-30 23:59",
     "hackathon/2027/qualifier", ["hackathon", "ocean", "logistics", "data"],
     "2027 물결 오션 해커톤(Mulgyeol Ocean Hackathon)의 온라인 예선입니다. "
     "참가 신청은 2027년 4월부터 받으며, 3~5인 팀 단위로 항만 안전 또는 해양 물류 주제의 기획서를 제출합니다. "
     "상위 40팀은 7월 본선에 진출합니다."),

    # ---- Garam CTF / 가람 CTF (qualifier/finals) ----
    ("B1", "garam", "Garam CTF 2024 Finals", "2024-11-23 10:00", "2024-11-24 10:00",
     "ctf/2024/finals", ["ctf", "security"],
     "The 24-hour on-site finals of Garam CTF 2024, hosted by Garam Security at its Haemil City office. "
     "Twenty teams of up to four players compete in a jeopardy format covering web, pwn, reversing and crypto. "
     "The total prize pool is KRW 20 million."),
    ("B2", "garam", "가람 CTF 2025 예선 (Qualifier)", "2025-09-06 09:00", "2025-09-07 09:00",
     "ctf/2025/qualifier", ["ctf", "security"],
     "가람시큐리티(Garam Security)가 여는 24시간 온라인 예선입니다. "
     "팀당 최대 4명이 참가할 수 있고, 상위 20팀이 11월 본선에 진출합니다. "
     "웹, 포너블, 리버싱, 암호 분야 문제가 출제됩니다."),
    ("B3", "garam", "Garam CTF 2025 Finals 본선", "2025-11-22 10:00", "2025-11-23 10:00",
     "ctf/2025/finals", ["ctf", "security"],
     "Garam CTF 2025 본선은 해밀 컨벤션센터에서 24시간 동안 열리는 오프라인 대회입니다. "
     "예선 상위 20팀이 attack-defense 방식으로 경쟁하며 총상금은 3,000만 원입니다."),
    ("B4", "garam", "가람 CTF 2026 예선", "2026-09-05 09:00", "2026-09-06 09:00",
     "ctf/2026/qualifier", ["ctf", "security"],
     "가람 CTF 2026의 24시간 온라인 예선입니다. "
     "누구나 최대 4명 팀으로 참가할 수 있지만, 본선 진출은 국내 거주자로만 구성된 팀만 가능합니다. "
     "점수가 같으면 마지막 플래그를 먼저 제출한 팀이 순위에서 앞섭니다."),
    ("B5", "garam", "Garam CTF 2026 Finals", "2026-12-12 10:00", "2026-12-13 10:00",
     "ctf/2026/finals", ["ctf", "security"],
     "The offline finals of Garam CTF 2026 run for 24 hours on December 12-13 at the Haemil Convention Center. "
     "The top 20 teams from the September qualifier play attack-defense, and the total prize pool rises to KRW 40 million. "
     "Players bring their own laptops; network equipment is provided."),

    # ---- Daon Robot Challenge / 다온 로봇 챌린지 (학생/일반 부문) ----
    ("C1", "daon", "2025 다온 로봇 챌린지 학생부문", "2025-08-01", "2025-10-17",
     "challenge/2025/student", ["robotics", "ai", "student"],
     "다온로보틱스(Daon Robotics)가 고등학생과 대학생을 대상으로 여는 로봇 자율주행 대회입니다. "
     "지급되는 교육용 로봇 'DR-mini'로 미로 탐색 과제를 수행하며, 결선은 해밀시 다온 로보파크에서 열립니다. "
     "팀은 2~4명으로 구성합니다."),
    ("C2", "daon", "2025 Daon Robot Challenge 일반부문 (General)", "2025-08-01", "2025-10-24",
     "challenge/2025/general", ["robotics", "ai"],
     "The general division of the 2025 Daon Robot Challenge is open to startups and working engineers. "
     "Teams of 2-5 program an industrial arm to sort mixed parcels, and the final round takes place at Daon RoboPark in Haemil City. "
     "The top prize is KRW 20 million."),
    ("C3", "daon", "2026 다온 로봇 챌린지 학생부문", "2026-08-03", "2026-10-16",
     "challenge/2026/student", ["robotics", "ai", "student"],
     "2026 다온 로봇 챌린지 학생부문은 고등학생과 대학생 2~4인 팀이 참가합니다. "
     "과제는 DR-mini 로봇으로 창고 선반 사이의 물품을 찾아 옮기는 것이며, 결선은 다온 로보파크에서 진행됩니다. "
     "대상 상금은 500만 원입니다."),
    ("C4", "daon", "2026 Daon Robot Challenge General Division (일반부문)", "2026-08-03", "2026-10-23",
     "challenge/2026/general", ["robotics", "ai"],
     "Teams of 2-5 engineers program a dual-arm robot to load and unload containers in a simulated port yard. "
     "The finals are held at Daon RoboPark in Haemil City, and the grand prize is KRW 30 million."),
    ("C5", "daon", "2027 다온 로봇 챌린지 학생부문", "2027-03-02", "2027-05-28",
     "challenge/2027/student", ["robotics", "ai", "student"],
     "2027 다온 로봇 챌린지 학생부문은 일정이 봄 학기로 앞당겨졌습니다. "
     "참가 신청은 2027년 3월 2일부터 3월 31일까지 받으며, 고등학생·대학생 2~4인 팀이 참여할 수 있습니다. "
     "결선은 5월 말 다온 로보파크에서 열립니다."),

    # ---- Gureum Game Jam / 구름 게임잼 ----
    ("D1", "gureum", "Gureum Game Jam 2024", "2024-12-13 19:00", "2024-12-15 19:00",
     "jam/2024", ["gamejam", "game", "cloud"],
     "A 48-hour game jam hosted by GureumPlay (구름플레이) where every entry must run on its cloud streaming platform. "
     "Teams of up to four people build a game around a theme announced at the opening. "
     "It takes place online with a closing showcase in Haemil City."),
    ("D2", "gureum", "구름 게임잼 2025", "2025-12-12 19:00", "2025-12-14 19:00",
     "jam/2025", ["gamejam", "game", "cloud"],
     "구름플레이가 여는 48시간 게임잼으로, 모든 출품작은 구름플레이 스트림에서 실행되어야 합니다. "
     "팀은 최대 4명이며 주제는 개막식에서 공개됩니다. "
     "해밀 게임센터에서 오프라인으로 진행됩니다."),
    ("D3", "gureum", "구름 게임잼 2026 (Gureum Game Jam 2026)", "2026-12-18 19:00", "2026-12-20 19:00",
     "jam/2026", ["gamejam", "game", "cloud"],
     "구름 게임잼 2026은 해밀 게임센터와 온라인에서 동시에 열리는 48시간 게임잼입니다. "
     "팀은 1~4명으로 구성할 수 있고, 완성작은 구름플레이 스트림에 바로 배포됩니다. "
     "대상 팀에게는 300만 원과 구름플레이 입점 기회가 주어집니다."),
    ("D4", "gureum", "Gureum Game Jam 2026 Summer: Cloud Edition", "2026-07-24 19:00", "2026-07-26 19:00",
     "jam/2026-summer", ["gamejam", "game", "cloud"],
     "A summer edition of the Gureum Game Jam focused on multiplayer games that use GureumPlay's low-latency session API. "
     "Teams of up to four have 48 hours, and the event is fully online. "
     "Winners receive cloud credits worth KRW 2 million."),

    # ---- Hanbit BioData Challenge / 한빛 바이오데이터 챌린지 ----
    ("E1", "hanbitbio", "2025 한빛 바이오데이터 챌린지", "2025-03-03", "2025-04-30",
     "challenge/2025", ["data", "ai", "bio", "health"],
     "한빛바이오데이터(Hanbit BioData)가 익명화된 단일세포 유전자 발현 데이터를 제공하는 분석 경진대회입니다. "
     "참가자는 세포 유형 분류 모델을 제출하며, 평가는 비공개 테스트셋의 macro F1 점수로 합니다. "
     "총상금은 2,000만 원입니다."),
    ("E2", "hanbitbio", "Hanbit BioData Challenge 2026", "2026-03-02", "2026-04-30",
     "challenge/2026", ["data", "ai", "bio", "health"],
     "Hanbit BioData's yearly data challenge, this time on predicting drug response from anonymised patient-derived organoid data. "
     "Individuals or teams of up to three may enter, and submissions are scored on a hidden test set. "
     "The total prize pool is KRW 30 million."),
    ("E3", "hanbitbio", "2027 한빛 바이오데이터 챌린지", "2027-03-02", "2027-04-30",
     "challenge/2027", ["data", "ai", "bio", "health"],
     "한빛 바이오데이터 챌린지의 2027년 대회로, 희귀질환 유전체 변이 해석을 주제로 합니다. "
     "개인 또는 3인 이하 팀이 참가할 수 있으며, 대상 상금은 2,000만 원, 총상금은 4,000만 원입니다. "
     "데이터는 보안 분석 환경 안에서만 사용할 수 있습니다."),

    # ---- CarbonZero Datathon / 탄소제로 데이터톤 ----
    ("F1", "ceii", "CarbonZero Datathon 2025", "2025-10-01", "2025-11-15",
     "datathon/2025", ["datathon", "data", "climate"],
     "A datathon run by the Climate Energy Innovation Institute (기후에너지혁신원, CEII) on estimating building emissions from public energy-use records. "
     "Teams of up to five analyse the data over six weeks and present in a final pitch at the CEII campus. "
     "The grand prize is KRW 10 million."),
    ("F2", "ceii", "2026 탄소제로 데이터톤", "2026-10-05", "2026-12-08 18:00",
     "datathon/2026", ["datathon", "data", "climate"],
     "기후에너지혁신원이 주최하는 탄소제로 데이터톤(CarbonZero Datathon) 2026입니다. "
     "주제는 물류 차량 운행 데이터로 배출량을 줄이는 경로를 찾는 것이며, 최종 분석 보고서는 12월 8일 18시까지 제출해야 합니다. "
     "팀은 최대 5명입니다."),

    # ---- ByeolbitDB Contributhon / 별빛DB 컨트리뷰톤 ----
    ("G1", "byeolbit", "별빛DB 컨트리뷰톤 2025", "2025-07-01", "2025-08-31",
     "contributhon/2025", ["opensource", "database"],
     "오픈소스 데이터베이스 별빛DB(ByeolbitDB)에 두 달 동안 코드와 문서를 기여하는 프로그램입니다. "
     "참가자는 멘토가 이끄는 팀에 배정되어 이슈를 해결하고, 우수 기여자에게는 메인테이너 추천과 상금이 주어집니다."),
    ("G2", "byeolbit", "ByeolbitDB Contributhon 2026", "2026-07-01", "2026-08-31",
     "contributhon/2026", ["opensource", "database"],
     "A two-month contribution program for the open-source ByeolbitDB (별빛DB) database, running from July 1 to August 31. "
     "Participants join mentor-led teams working on the query planner, storage engine or documentation. "
     "First-time contributors are especially welcome."),

    # ---- SafeCity AI Challenge / 세이프시티 AI 챌린지 (예선/본선) ----
    ("H1", "nsdc", "2025 세이프시티 AI 챌린지 예선", "2025-06-02", "2025-06-30",
     "challenge/2025/qualifier", ["ai", "safety", "data"],
     "국가안전데이터센터(National Safety Data Center)가 여는 공공안전 AI 경진대회의 온라인 예선입니다. "
     "산불·침수 위성영상 데이터로 재난 조기탐지 모델을 만들며, 상위 15팀이 본선에 진출합니다."),
    ("H2", "nsdc", "2025 SafeCity AI Challenge 본선", "2025-08-20", "2025-08-22",
     "challenge/2025/finals", ["ai", "safety", "data"],
     "The finals of the 2025 SafeCity AI Challenge, where the 15 best qualifier teams refine their early-warning models on live sensor feeds. "
     "The three-day event is held at the National Safety Data Center in Haemil City, and the top prize is KRW 20 million."),
    ("H3", "nsdc", "2026 세이프시티 AI 챌린지 예선", "2026-11-02", "2026-12-06 23:59",
     "challenge/2026/qualifier", ["ai", "safety", "data"],
     "2026 세이프시티 AI 챌린지 예선은 CCTV와 119 신고 데이터를 결합해 도심 안전사고를 예측하는 과제입니다. "
     "3인 이하 팀으로 참가하며 예측 결과는 12월 6일 자정 전까지 제출해야 합니다. "
     "상위 15팀이 본선에 진출합니다."),
    ("H4", "nsdc", "2026 SafeCity AI Challenge Finals (본선)", "2027-01-20 10:00", "2027-01-22 17:00",
     "challenge/2026/finals", ["ai", "safety", "data"],
     "The finals of the 2026 SafeCity AI Challenge take place from January 20 to 22, 2027 at the National Safety Data Center in Haemil City. "
     "The 15 qualifier teams present working prototypes to judges from the fire and police services. "
     "The grand prize is KRW 25 million."),

    # ---- Baeumteo EdTech Idea Contest / 배움터 에듀테크 아이디어 공모전 (학생/일반) ----
    ("I1", "baeumteo", "2025 배움터 에듀테크 아이디어 공모전 (학생부문)", "2025-04-01", "2025-05-15",
     "contest/2025/student", ["edtech", "idea", "student"],
     "에듀테크 기업 배움터(Baeumteo)가 여는 아이디어 공모전의 학생부문으로, 중·고·대학생 누구나 참가할 수 있습니다. "
     "수업 중 겪은 불편을 해결하는 서비스 기획서를 제출하며, 대상 상금은 200만 원입니다."),
    ("I2", "baeumteo", "2025 Baeumteo EdTech Idea Contest - General", "2025-04-01", "2025-05-15",
     "contest/2025/general", ["edtech", "idea"],
     "The general division of Baeumteo's 2025 EdTech Idea Contest is open to teachers, developers and startups. "
     "Entrants submit a service proposal and a clickable prototype, and the grand prize is KRW 5 million plus a pilot in Baeumteo Class."),
    ("I3", "baeumteo", "2026 배움터 에듀테크 아이디어 공모전 학생부문", "2026-11-16", "2027-01-15",
     "contest/2026/student", ["edtech", "idea", "student"],
     "2026 배움터 에듀테크 아이디어 공모전 학생부문은 중학생부터 대학생까지 개인 또는 3인 이하 팀으로 지원할 수 있습니다. "
     "'AI와 함께하는 공부'를 주제로 한 기획서를 2027년 1월 15일 18시까지 제출하면 됩니다. "
     "대상에게는 300만 원이 주어집니다."),
    ("I4", "baeumteo", "2026 Baeumteo EdTech Idea Contest (일반부문)", "2026-11-16", "2027-01-15",
     "contest/2026/general", ["edtech", "idea"],
     "The general division of the 2026 Baeumteo EdTech Idea Contest accepts proposals from teachers, developers and companies until January 15, 2027. "
     "The grand prize is KRW 7 million and a three-month pilot in Baeumteo Class; two runners-up receive KRW 2 million each."),

    # ---- Nuri Port Logistics AI Competition / 누리항만 물류 AI 경진대회 ----
    ("J1", "nuriport", "제1회 누리항만 물류 AI 경진대회", "2025-09-15", "2025-11-14",
     "ai-contest/1", ["ai", "logistics", "port", "data"],
     "누리항만공사(Nuri Port Authority)가 처음 여는 물류 AI 경진대회로, 선석 배정 최적화 문제를 다룹니다. "
     "최근 3년간의 선박 입출항 기록이 제공되며 최대 4인 팀으로 참가합니다."),
    ("J2", "nuriport", "2nd Nuri Port Logistics AI Competition (제2회)", "2026-09-14", "2026-11-13",
     "ai-contest/2", ["ai", "logistics", "port", "data"],
     "The second Nuri Port Logistics AI Competition asks teams to forecast container pick-up times at the Nuri Port container terminal. "
     "Nuri Port Authority provides two years of anonymised gate-in and gate-out logs plus weather data. "
     "Teams of up to four may enter, and the top prize is KRW 15 million."),

    # ---- CodeNuri Algorithm Contest / 코드누리 알고리즘 대회 (rounds) ----
    ("K1", "codenuri", "CodeNuri Algorithm Contest 2025 Round 1", "2025-03-15 14:00", "2025-03-15 17:00",
     "contest/2025/round1", ["algorithm", "coding"],
     "An individual online algorithm contest run by CodeNuri (코드누리). "
     "Participants solve eight problems in three hours, and ranking is by solved count and penalty time."),
    ("K2", "codenuri", "코드누리 알고리즘 대회 2026 1라운드", "2026-03-14 14:00", "2026-03-14 17:00",
     "contest/2026/round1", ["algorithm", "coding"],
     "코드누리가 여는 개인전 온라인 알고리즘 대회의 2026년 1라운드입니다. "
     "3시간 동안 8문제를 풀며 C++, Java, Python, Rust를 사용할 수 있습니다."),
    ("K3", "codenuri", "CodeNuri Algorithm Contest 2026 Round 2 (2라운드)", "2026-12-05 14:00", "2026-12-05 17:00",
     "contest/2026/round2", ["algorithm", "coding"],
     "Round 2 of the 2026 CodeNuri Algorithm Contest starts at 14:00 KST on Saturday, December 5 and lasts three hours. "
     "It is an individual online contest with eight problems; the top 30 receive CodeNuri T-shirts and the top 3 win cash prizes."),

    # ---- singles ----
    ("HOD", "haemil", "해밀시 공공데이터 활용 공모전 2026", "2026-10-12", "2026-12-10 18:00",
     "opendata/2026", ["data", "opendata", "idea"],
     "해밀시(Haemil City)가 시 공공데이터를 활용한 서비스·분석 아이디어를 모집합니다. "
     "교통, 환경, 복지 등 시가 개방한 300여 종의 데이터를 쓸 수 있으며, 접수는 12월 10일 18시에 마감됩니다. "
     "대상 1팀에게 500만 원을 시상합니다."),
    ("S1", "hanbithosp", "의료영상 AI 판독 챌린지 2026", "2026-11-20", "2027-02-26",
     "ai-challenge/2026", ["ai", "health", "imaging"],
     "한빛대학교병원(Hanbit University Hospital)이 흉부 X-ray 판독 보조 AI를 겨루는 챌린지를 엽니다. "
     "비식별화된 영상 12만 장이 제공되며 최종 모델은 2027년 2월 26일까지 제출해야 합니다. "
     "총상금은 5,000만 원이고 대상은 2,000만 원입니다."),
    ("S2", "hanbitbio", "유전체 데이터 시각화 공모전 (Genome Data Visualization Contest)", "2026-06-01", "2026-07-15",
     "genome-viz/2026", ["data", "bio", "visualization"],
     "Hanbit BioData invites designers and developers to visualise public genome variant data for non-expert audiences. "
     "Entries can be web apps, posters or notebooks, and individuals or teams of up to three may apply."),
    ("S3", "medibridge", "헬스케어 LLM Hackathon 2027", "2027-02-19 10:00", "2027-02-21 17:00",
     "hackathon/2027", ["hackathon", "ai", "health", "llm"],
     "메디브릿지(MediBridge)가 주최하는 3일간의 헬스케어 LLM 해커톤으로, 한빛대학교병원 교육관에서 열립니다. "
     "3~5인 팀이 환자 안내 챗봇이나 의무기록 요약 도구를 만들며, 모든 데이터는 합성 데이터로 제공됩니다. "
     "대상 상금은 1,000만 원입니다."),
    ("S4", "nbia", "의료데이터 개인정보 보호 AI 챌린지", "2025-09-01", "2025-10-31",
     "privacy-challenge/2025", ["ai", "privacy", "health", "security"],
     "국가바이오정보원(National Bio Information Agency)이 의료데이터의 재식별 위험을 낮추는 AI 기법을 공모했습니다. "
     "참가자는 합성데이터 생성 또는 비식별화 모델을 제출하며, 유용성과 프라이버시 점수를 함께 평가합니다."),
    ("S5", "medibridge", "Bio Blockchain Ideathon 2026", "2026-04-10 10:00", "2026-04-11 18:00",
     "ideathon/2026", ["blockchain", "health", "idea"],
     "A two-day ideathon by MediBridge (메디브릿지) on using blockchain to manage clinical-trial consent and health-record sharing. "
     "Teams of 2-4 pitch a concept and a mock-up on the second day. "
     "It is held at the MediBridge office in Haemil City."),
    ("S6", "nuriport", "항만 디지털트윈 아이디어톤", "2027-03-15", "2027-04-16",
     "digital-twin/2027", ["port", "logistics", "digitaltwin", "idea"],
     "누리항만공사가 누리항 디지털트윈(Nuri Port Digital Twin) 활용 아이디어를 모집합니다. "
     "하역 장비 배치, 선박 대기 시간 감소 등 주제는 자유이며, 최종 발표회는 4월 16일 누리항만공사 본사에서 열립니다."),
    ("S7", "chainnoeul", "물류 블록체인 해커톤 2025", "2025-11-07 10:00", "2025-11-09 17:00",
     "hackathon/2025", ["blockchain", "logistics", "hackathon"],
     "블록체인 기업 체인노을(ChainNoeul)이 누리항만공사와 함께 여는 무박 3일 해커톤입니다. "
     "선하증권 전자화, 컨테이너 이력 추적 등 물류 문제를 블록체인으로 해결하는 것이 과제이며, 팀은 3~5명입니다."),
    ("S8", "fastroad", "Last-Mile Delivery Data Challenge", "2026-12-14", "2027-02-12",
     "data-challenge/2026", ["data", "logistics", "ai"],
     "FastRoad Logistics (빠른길물류) releases six months of anonymised delivery records from Haemil City and asks teams to predict failed deliveries. "
     "Teams of up to four submit predictions and a short report by February 12, 2027. "
     "The top prize is KRW 10 million."),
    ("S9", "nuriport", "스마트 컨테이너 IoT 챌린지", "2026-02-02", "2026-03-31",
     "iot-challenge/2026", ["iot", "port", "logistics"],
     "누리항만공사가 냉동 컨테이너 센서 데이터를 활용한 IoT 서비스를 공모한 대회입니다. "
     "참가팀은 온도 이상 감지와 전력 사용 최적화 중 하나를 골라 시제품을 제출했습니다."),
    ("S10", "daon", "자율주행 배송로봇 챌린지 (Autonomous Delivery Robot Challenge)", "2026-11-09", "2027-03-19",
     "delivery-robot/2026", ["robotics", "mobility", "ai"],
     "다온로보틱스와 해밀시가 함께 여는 배송로봇 자율주행 대회로, 해밀시 신도심 보도 구간에서 실제 주행 평가를 합니다. "
     "팀은 3~6명이며 주최 측이 로봇 플랫폼을 대여해 줍니다. "
     "1차 서류 제출 후 3월에 본선 주행이 진행됩니다."),
    ("S11", "haemilfire", "Drone Rescue Competition 2026", "2026-09-19", "2026-09-20",
     "drone-rescue/2026", ["robotics", "drone", "safety"],
     "Haemil Fire Headquarters (해밀소방본부) held a two-day drone rescue competition at the Haemil Fire Training Center. "
     "Teams flew autonomous drones to locate mannequins in a collapsed-building mock-up and drop first-aid kits."),
    ("S12", "daon", "휴머노이드 로봇 SW 챌린지 2027", "2027-04-05", "2027-06-25",
     "humanoid/2027", ["robotics", "ai"],
     "다온로보틱스가 자사 휴머노이드 'DH-1' 시뮬레이터로 가사 작업을 수행하는 소프트웨어를 겨루는 대회입니다. "
     "시뮬레이션 예선을 거친 상위 8팀은 실제 로봇으로 결선을 치릅니다. "
     "대상 상금은 5,000만 원입니다."),
    ("S13", "robotopenlab", "ROS Open Source Contribution Camp 2026", "2026-11-23", "2026-12-18",
     "camp/2026", ["robotics", "opensource"],
     "A four-week online camp by RobotOpenLab (로봇오픈랩) where participants fix issues in open-source ROS 2 packages under mentor guidance. "
     "Weekly code reviews are held on Thursday evenings, and everyone who completes the camp receives a certificate."),
    ("S14", "gureum", "클라우드 게임 서버 최적화 챌린지", "2026-10-19", "2026-12-18",
     "server-challenge/2026", ["cloud", "game", "performance"],
     "구름플레이가 게임 세션 서버의 지연 시간과 비용을 줄이는 최적화 아이디어를 겨루는 대회입니다. "
     "제공된 부하 테스트 환경에서 p99 지연 시간과 시간당 서버 비용을 함께 측정해 순위를 매깁니다. "
     "개인 또는 3인 이하 팀으로 참가합니다."),
    ("S15", "gureum", "GureumPlay Stream SDK Bug Bounty 2026", "2026-06-15", "2026-08-14",
     "bugbounty/2026", ["security", "bugbounty", "cloud", "game"],
     "GureumPlay ran a two-month bug bounty on its Stream SDK and web player. "
     "Rewards ranged from KRW 500,000 to KRW 20 million depending on severity."),
    ("S16", "gureum", "인디게임 클라우드 출시 공모전", "2027-02-01", "2027-03-31",
     "indie/2027", ["game", "cloud", "indie"],
     "구름플레이가 인디 개발사의 클라우드 출시를 지원하는 공모전입니다. "
     "선정된 10개 게임은 구름플레이 스트림 입점과 6개월간 서버 비용 전액 지원을 받습니다."),
    ("S17", "byeolmuri", "Game AI NPC Hackathon", "2025-06-20 19:00", "2025-06-22 19:00",
     "hackathon/2025", ["hackathon", "ai", "game"],
     "Byeolmuri Games (별무리게임즈) hosted a weekend hackathon on building NPCs driven by language models. "
     "Teams of up to four built a playable demo in 48 hours at the Byeolmuri studio in Haemil City."),
    ("S18", "chorok", "그린코드 해커톤 2026", "2026-05-22 10:00", "2026-05-24 17:00",
     "greencode/2026", ["hackathon", "climate", "energy"],
     "기후테크 스타트업 초록바람(Chorok Baram)이 여는 기후 해커톤으로, 재생에너지와 탄소 감축을 주제로 합니다. "
     "2~5인 팀이 48시간 동안 서비스를 만들며 해밀 청년창업센터에서 열립니다."),
    ("S19", "chorok", "GreenCode Hackathon 2027", "2027-05-21 10:00", "2027-05-23 17:00",
     "greencode/2027", ["hackathon", "climate", "energy"],
     "The 2027 GreenCode Hackathon by Chorok Baram returns to the Haemil Youth Startup Center for 48 hours. "
     "Registration opens on March 2, 2027, and teams of 2-5 can join. "
     "The grand prize is KRW 5 million plus a pilot with Chorok Baram's CarbonLens platform."),
    ("S20", "ceii", "스마트그리드 수요예측 AI 대회", "2026-11-02", "2027-02-05",
     "grid-forecast/2026", ["ai", "energy", "climate", "data"],
     "기후에너지혁신원이 지역 전력 수요를 15분 단위로 예측하는 AI 모델을 공모합니다. "
     "해밀시 변전소 3년치 계량 데이터가 제공되며 평가 지표는 MAPE입니다. "
     "총상금은 3,000만 원입니다."),
    ("S21", "ceii", "Climate Data Visualization Contest 2025", "2025-05-01", "2025-06-13",
     "climate-viz/2025", ["data", "climate", "visualization"],
     "CEII asked citizens and developers to turn regional temperature and rainfall records into easy-to-read visualisations. "
     "Entries were judged on accuracy, clarity and design."),
    ("S22", "byeolbit", "별빛DB 쿼리 최적화 대회", "2026-12-15", "2027-02-26",
     "query-contest/2026", ["database", "opensource", "performance"],
     "별빛DB 커뮤니티가 벤치마크 쿼리 22개의 실행 시간을 줄이는 대회를 엽니다. "
     "참가자는 인덱스 설계나 플래너 패치를 제출할 수 있으며, 별빛DB 3.0 베타 기준으로 측정합니다. "
     "상위 3명에게는 상금과 커미터 멘토링이 주어집니다."),
    ("S23", "mirdata", "MirSQL Bug Bounty 2026", "2026-10-01", "2027-03-31",
     "bugbounty/2026", ["database", "security", "bugbounty", "opensource"],
     "Mir Data (미르데이터) pays researchers who report security flaws in the open-source MirSQL database. "
     "The top reward is KRW 30 million for remote code execution, and every report must include a proof of concept."),
    ("S24", "byeolbit", "벡터DB 검색 품질 챌린지", "2025-12-01", "2026-01-30",
     "vector-challenge/2025", ["database", "ai", "search"],
     "별빛DB 커뮤니티가 한국어 문서 검색에서 벡터 검색 정확도를 높이는 방법을 겨룬 대회입니다. "
     "참가자는 임베딩 모델과 인덱스 설정을 조합해 recall@10을 높였습니다."),
    ("S25", "mirdata", "Open-Source DB Docs-a-thon", "2027-02-15", "2027-02-28",
     "docsathon/2027", ["database", "opensource", "docs"],
     "A two-week documentation sprint for MirSQL and ByeolbitDB, co-hosted by Mir Data and the ByeolbitDB community. "
     "Participants translate and improve guides in Korean and English; no coding is required."),
    ("S26", "nsdc", "재난문자 UX 개선 공모전", "2026-03-16", "2026-04-24",
     "alert-ux/2026", ["safety", "design", "idea"],
     "국가안전데이터센터가 긴급재난문자를 더 읽기 쉽게 만드는 디자인과 서비스 아이디어를 모집한 공모전입니다. "
     "고령자와 외국인을 위한 표현 개선안도 함께 받았습니다."),
    ("S27", "haemilfire", "119 Emergency Call Voice AI Challenge", "2027-02-01", "2027-04-30",
     "voice-ai/2027", ["ai", "safety", "speech"],
     "Haemil Fire Headquarters invites teams to build speech models that pull the address and type of emergency out of noisy 119 call recordings. "
     "Teams of up to four work with de-identified audio in a secure environment, and the grand prize is KRW 15 million."),
    ("S28", "nsdc", "CCTV 이상행동 탐지 해커톤", "2026-12-11 10:00", "2026-12-13 17:00",
     "cctv-hackathon/2026", ["hackathon", "ai", "safety", "vision"],
     "국가안전데이터센터가 여는 2박 3일 해커톤으로, 공공 CCTV 영상에서 쓰러짐·배회 같은 이상행동을 탐지하는 모델을 만듭니다. "
     "3~4인 팀으로 참가하며 장소는 해밀시 국가안전데이터센터입니다. "
     "대상 상금은 700만 원입니다."),
    ("S29", "baeumteo", "청소년 코딩 챌린지 2026", "2026-07-06", "2026-08-21",
     "youth-coding/2026", ["coding", "student", "edtech"],
     "배움터가 중·고등학생을 대상으로 여는 온라인 코딩 대회입니다. "
     "블록코딩과 파이썬 두 트랙으로 나뉘며 개인전으로 진행됐습니다."),
    ("S30", "keda", "Learning Analytics Data Contest", "2026-12-21", "2027-02-19",
     "la-contest/2026", ["data", "edtech", "ai"],
     "The Korea Education Data Association (한국교육데이터협회, KEDA) provides anonymised learning logs from online math classes and asks teams to predict student drop-off. "
     "Teams of up to three may enter, and the top prize is KRW 8 million."),
    ("S31", "baeumteo", "AI 튜터 해커톤", "2025-10-24 19:00", "2025-10-26 19:00",
     "ai-tutor/2025", ["hackathon", "ai", "edtech"],
     "배움터가 연 AI 튜터 해커톤으로, 학생 질문에 바로 답을 주지 않고 스스로 생각하도록 돕는 튜터를 만드는 것이 과제였습니다. "
     "3~4인 팀이 배움터 본사에서 48시간 동안 개발했습니다."),
    ("S32", "keda", "교사를 위한 노코드 앱 공모전", "2026-11-02", "2027-02-27",
     "nocode/2026", ["edtech", "nocode", "idea"],
     "한국교육데이터협회(KEDA)가 교사가 직접 만든 노코드 학급 관리 앱을 공모합니다. "
     "현직 교사라면 누구나 개인으로 지원할 수 있으며 접수 마감은 2027년 2월 27일입니다."),
    ("S33", "haemil", "해밀 스마트시티 해커톤 2025", "2025-09-26 10:00", "2025-09-28 17:00",
     "smartcity-hackathon/2025", ["hackathon", "smartcity", "data"],
     "해밀시가 시민 생활 문제를 해결하는 서비스를 만드는 해커톤을 열었습니다. "
     "주차, 교통, 에너지 등 시 데이터 40종이 제공됐고 3~5인 팀이 참가했습니다."),
    ("S34", "haemil", "공공안전 데이터 분석 대회", "2026-12-28", "2027-03-05",
     "safety-analytics/2026", ["data", "safety"],
     "해밀시가 교통사고와 화재 출동 기록을 분석해 위험 지역을 찾는 데이터 분석 대회를 엽니다. "
     "개인 또는 4인 이하 팀이 분석 보고서와 대시보드를 제출하며 총상금은 1,200만 원입니다."),
    ("S35", "medibridge", "BioHack Winter 2026", "2026-12-26 10:00", "2026-12-27 18:00",
     "biohack/2026", ["hackathon", "bio", "health"],
     "MediBridge's two-day winter hackathon on lab-automation tools for bio researchers. "
     "It takes place at the MediBridge office in Haemil City, and teams of 2-4 build prototypes on open lab datasets."),
    ("S36", "garam", "Cloud Security CTF 2026", "2026-02-21 09:00", "2026-02-22 09:00",
     "cloud-ctf/2026", ["ctf", "security", "cloud"],
     "가람시큐리티가 클라우드 환경 보안에 초점을 맞춰 연 24시간 온라인 CTF입니다. "
     "잘못 설정된 스토리지 버킷, 컨테이너 탈출 등의 문제가 출제됐습니다."),
    ("S37", "fastroad", "로봇 팔 피킹 챌린지", "2026-01-12", "2026-03-27",
     "picking/2026", ["robotics", "logistics", "ai"],
     "빠른길물류(FastRoad Logistics)와 다온로보틱스가 함께 연 물류센터 로봇 팔 피킹 대회입니다. "
     "다양한 모양의 택배 상자를 집어 분류하는 성공률과 속도로 순위를 정했습니다."),
    ("S38", "baeumteo", "에듀 게임잼 2027 (Edu Game Jam)", "2027-02-12 19:00", "2027-02-14 19:00",
     "edu-gamejam/2027", ["gamejam", "edtech", "game"],
     "배움터와 구름플레이가 함께 여는 교육용 게임잼으로, 초등 수학을 재미있게 배우는 게임을 48시간 동안 만듭니다. "
     "팀은 최대 4명이며 온라인으로 진행됩니다."),
    ("L1", "haemil", "해밀 주니어 CTF 2025 (Haemil Junior CTF)", "2025-08-09 10:00", "2025-08-09 18:00",
     "junior-ctf/2025", ["ctf", "security", "student"],
     "해밀시가 중·고등학생만 참가할 수 있도록 연 하루짜리 입문용 CTF입니다. "
     "만 13세부터 18세까지 개인 또는 2인 팀으로 참가했으며, 해밀시 청소년수련관에서 오프라인으로 진행됐습니다."),
]
