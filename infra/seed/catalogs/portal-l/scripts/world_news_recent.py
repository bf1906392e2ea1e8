# -*- coding: utf-8 -*-
"""News articles published 2026-12-01 .. 2027-02-10 (portal-l catalog)."""

N = []


def n(key, title, summary, paras, published, url, source, tags):
    assert len(paras) == 3, key
    N.append(dict(key=key, title=title, summary=summary, paras=paras,
                  published=published, url=url, source=source, tags=tags))


# ---------------------------------------------------------------- December 2026
n("n26-wildfire-kickoff",
  "궤도창 산불 감시 챌린지 시작…강원 산림 영상 12TB 공개",
  "별밭우주연구소가 강원도 산림 위성영상 12TB를 공개하며 궤도창 산불 감시 챌린지를 시작했다.",
  ["별밭우주연구소가 12월 1일 궤도창 산불 감시 챌린지(Gwedochang Wildfire Watch Challenge)를 시작하고 강원도 산림 위성영상 12TB를 공개했다. 2019년부터 2026년까지 산불이 난 지역 38곳의 전후 영상이 포함됐다.",
   "참가자는 산불 피해 흔적을 픽셀 단위로 찾아내야 하며, 정답 라벨은 산림 당국의 현장 조사 결과로 만들었다.",
   "연구소는 이번 데이터가 50cm급 고해상도 영상을 처음으로 대회에 쓴 사례라고 설명했다."],
  "2026-12-01 15:00", "https://byeolbitnews.example/2026/12/wildfire-watch-kickoff", "별빛과학신문",
  ["space", "ai", "gwedochang", "byeolbat"])

n("n26-sorigyeol-50",
  "소리결 SDK 5.0 출시: 휴대폰에서 도는 음원 분리 기능 탑재",
  "가람사운드랩이 실시간 음원 분리(stem separation)를 넣은 소리결 SDK 5.0을 출시했다.",
  ["가람사운드랩이 소리결 SDK 5.0을 정식 출시했다. 가장 큰 변화는 노래를 보컬·드럼·베이스·기타 네 개 트랙으로 실시간 분리하는 음원 분리(stem separation) 기능으로, 지난 5월 발표한 연구 모델을 바탕으로 했다.",
   "5.0부터 플러그인 형식으로 CLAP이 추가됐고, 4.x에서 쓰던 구형 오디오 그래프 API는 제거됐다. 월 구독형 5.0 Pro 라이선스에서는 상업용 배포와 클라우드 렌더링을 쓸 수 있다.",
   "회사는 2027년 가람 뮤직테크 챌린지 학생 부문에서 음원 분리 기능 사용을 필수 조건으로 정했다."],
  "2026-12-03 10:00", "https://codemulgyeol.example/news/2026/12/sorigyeol-sdk-5-0", "코드물결",
  ["music", "sdk", "release", "sorigyeol"])

n("n26-wintercamp-open",
  "Saessak Coding Foundation opens its winter coding camp challenge",
  "Saessak Coding Foundation will run a three-week online coding challenge for grades 5 to 9 over the winter break.",
  ["Saessak Coding Foundation (새싹코딩재단) has opened registration for its winter-break coding camp challenge, which runs online from December 28 to January 17.",
   "Students from the fifth grade of elementary school to the third year of middle school get a new mission every week, from drawing with turtle graphics to writing a simple quiz game.",
   "Registration is free and closes on December 26. Everyone who finishes all three missions receives a certificate."],
  "2026-12-04 10:00", "https://codemulgyeol.example/en/2026/12/saessak-winter-camp", "CodeMulgyeol",
  ["education", "coding", "saessak"])

n("n26-pasukkun-21",
  "은결보안, 파수꾼 2.1 발표…인공지능 모델 파일 검사 추가",
  "파수꾼 2.1이 머신러닝 모델 파일 안에 숨은 악성 코드를 찾는 검사 기능을 새로 넣었다.",
  ["은결보안이 오픈소스 취약점 스캐너 파수꾼 2.1을 발표했다. 새 기능은 머신러닝 모델 파일(pickle 등)을 열기 전에 악성 코드 실행 여부를 검사하는 '모델 공급망 검사'다.",
   "2.1은 탐지 규칙 1,300개를 기본 제공하며, CI 파이프라인에 바로 붙일 수 있는 공식 플러그인을 함께 내놓았다.",
   "은결보안은 내년 5월 파수꾼 오픈소스 기여 대회를 열 예정이라고 밝혔다."],
  "2026-12-07 10:00", "https://codemulgyeol.example/news/2026/12/pasukkun-2-1", "코드물결",
  ["security", "opensource", "release", "pasukkun"])

n("n26-durepay-outage-dec",
  "DurePay 오픈 API v4 장애로 정산 조회 2시간 지연",
  "두레페이 오픈 API v4의 정산 조회 기능이 인증 서버 과부하로 2시간 동안 지연됐다.",
  ["두레페이 오픈 API v4의 가맹점 정산 조회 엔드포인트가 12월 8일 오전 9시부터 11시까지 약 2시간 동안 응답 지연과 401 오류를 냈다. 연말 정산 조회가 몰리며 인증 토큰 발급 서버가 과부하에 걸린 것이 원인이다.",
   "결제 승인과 전자영수증 발급은 정상적으로 동작했다. 두레페이는 토큰 유효 시간을 1시간에서 6시간으로 늘려 재발급 요청을 줄였다.",
   "두레페이가 정산 관련 장애를 겪은 것은 2025년 12월 이후 1년 만이다."],
  "2026-12-09 15:00", "https://fintechnaru.example/2026/12/durepay-v4-outage", "핀테크나루",
  ["fintech", "api", "outage", "durepay"])

n("n26-mulmaru-20-deprecation",
  "Mulmaru API 2.0 endpoints will shut down in June 2027",
  "The Haesol Marine Data Foundation will retire Mulmaru API 2.0 endpoints on June 30, 2027.",
  ["The Haesol Marine Data Foundation has announced that the Mulmaru API 2.0 endpoints will stop working on June 30, 2027. Version 2.1 will stay available until the end of 2027.",
   "Developers are asked to move to 2.1 now and to version 3.0 once it leaves beta. The foundation says about 1,900 API keys still call 2.0-only endpoints.",
   "A migration guide and a compatibility checker have been added to the Mulmaru developer site."],
  "2026-12-10 11:00", "https://devweekly.example/2026/12/mulmaru-2-0-deprecation", "DevWeekly Korea",
  ["ocean", "api", "mulmaru"])

n("n26-cheolgil-winter-data",
  "도시철길공사, 역사 한파 쉼터·열차 지연 데이터 새로 공개",
  "도시철길공사가 역사 안 한파 쉼터 위치와 열차 지연 이력을 공공데이터로 공개하고 겨울 공모전을 예고했다.",
  ["도시철길공사가 역사 안 한파 쉼터 112곳의 위치와 운영 시간, 최근 3년간 열차 지연 이력을 공공데이터로 공개했다.",
   "지연 데이터에는 노선·역·지연 시간·원인 분류가 들어 있다. 공사는 이 데이터를 활용하는 2027 철길 공공데이터 공모전을 1월 4일부터 겨울 시즌으로 연다.",
   "국가데이터개방위원회는 이번 공개를 교통 분야 데이터 개방 우수 사례로 꼽았다."],
  "2026-12-11 10:00", "https://techparang.example/2026/12/cheolgil-winter-data", "테크파랑",
  ["transit", "opendata", "cheolgil"])

n("n26-yearend-hackathon-winner",
  "연말 코드 정산 해커톤 대상은 '세금요정' 팀",
  "두레페이가 연 연말 코드 정산 해커톤에서 소상공인 부가세 신고 자동화 서비스 '세금요정'이 대상을 받았다.",
  ["두레페이가 12월 12~13일 여의도 두레타워에서 연 연말 코드 정산 해커톤에서 4인 팀 '세금요정'이 대상을 받았다. 두레페이 정산 내역을 불러와 부가가치세 신고 초안을 만들어 주는 서비스다.",
   "대상 상금은 500만 원이며, 최우수상은 가게 매출을 월별로 요약해 주는 챗봇 '정산봇'이 받았다.",
   "두레페이는 세금요정 팀과 함께 서비스를 실제 가맹점에 시범 적용할 예정이다."],
  "2026-12-14 18:00", "https://fintechnaru.example/2026/12/yearend-hackathon-winner", "핀테크나루",
  ["fintech", "hackathon", "results", "durepay"])

n("n26-bs2-orbit",
  "별밭 2호(BS-2) 큐브샛 궤도 진입 성공",
  "Byeolbat Space Institute's 2U CubeSat BS-2 reached orbit on a rocket from Eunha Launch Services.",
  ["BS-2 (별밭 2호), a 2U CubeSat built by Byeolbat Space Institute, reached a 550 km sun-synchronous orbit on December 15 aboard a small rocket operated by Eunha Launch Services (은하발사서비스).",
   "The satellite carries the institute's low-power UHF radio and a small camera for coastal imaging. Ground stations in Daejeon and Jeju received its first telemetry two hours after launch.",
   "The institute will publish the telemetry format so that amateur radio operators can track the satellite."],
  "2026-12-16 09:00", "https://byeolbitnews.example/2026/12/bs-2-reaches-orbit", "Byeolbit Science News",
  ["space", "cubesat", "launch", "byeolbat"])

n("n26-payload-2028",
  "은하발사서비스·별밭, 2028 학생 탑재체 공동 프로그램 발표",
  "은하발사서비스와 별밭우주연구소가 2028년 성층권 풍선에 학생 탑재체를 싣는 공동 프로그램을 발표했다.",
  ["은하발사서비스와 별밭우주연구소가 고등학생과 대학생의 탑재체를 성층권 풍선에 실어 주는 공동 프로그램을 발표했다. 공모는 2028년 1월 10일 시작한다.",
   "선정된 4팀은 제작비 1,500만 원씩을 받고, 2028년 가을 발사에 참여한다.",
   "은하발사서비스는 이번 프로그램이 성공하면 2030년부터 학생 큐브샛 무상 발사도 검토하겠다고 밝혔다."],
  "2026-12-18 10:00", "https://byeolbitnews.example/2026/12/student-payload-2028", "별빛과학신문",
  ["space", "student", "byeolbat"])

n("n26-winter-orbit-winner",
  "Winter Orbit Hackathon winner builds an open ground-station dashboard",
  "Team OpenPass won the Winter Orbit Hackathon in Daejeon with an open-source dashboard for CubeSat telemetry.",
  ["Team OpenPass won the Winter Orbit Hackathon, held at Byeolbat Space Institute in Daejeon on December 18-20. Their open-source dashboard decodes CubeSat telemetry and predicts the next pass over any city.",
   "The team of four took KRW 5 million of the KRW 10 million prize pool. Runner-up Sky Ledger built an anomaly detector for battery temperatures.",
   "OpenPass says it will adapt the dashboard for BS-2's newly published telemetry format."],
  "2026-12-21 11:00", "https://byeolbitnews.example/2026/12/winter-orbit-hackathon-winner", "Byeolbit Science News",
  ["space", "hackathon", "results", "byeolbat"])

n("n26-mulmaru-30-roadmap",
  "해솔해양데이터재단, 물마루 3.0 로드맵 공개…1월 베타",
  "해솔해양데이터재단이 실시간 파고 스트림과 이안류 예측을 담은 물마루 API 3.0을 1월에 베타로 공개한다.",
  ["해솔해양데이터재단이 물마루 API 3.0 로드맵을 공개했다. 3.0은 웹소켓 기반 실시간 파고 스트림, 이안류 위험 예측, 관측소 100곳 확대를 핵심으로 한다.",
   "베타는 2027년 1월 11일부터 한 달 동안 진행되며, 베타 기간에 버그를 제보하면 포인트를 준다. 정식 출시는 3월 초가 목표다.",
   "재단은 2027년 해솔 오션 해커톤 예선부터 3.0을 기본 데이터로 쓴다."],
  "2026-12-23 10:00", "https://badaeconomy.example/2026/12/mulmaru-3-roadmap", "바다경제",
  ["ocean", "api", "mulmaru", "roadmap"])

n("n26-audiojam-announce",
  "Pado Games Audio Jam announced with free Sorigyeol SDK 5.0 licences",
  "Pado Games will run a two-week online audio game jam from January 28 and give every entrant a free Sorigyeol SDK 5.0 licence.",
  ["Pado Games has announced its 2027 Audio Jam, a two-week online game jam starting on January 28. Every game must have a soundtrack that reacts to player movement.",
   "Garam Sound Lab is providing free Sorigyeol SDK 5.0 licences for the jam period. Solo developers and teams of up to three may take part.",
   "It is the studio's first jam since the 2025 Tidal Sound Game Jam."],
  "2026-12-28 14:00", "https://gamenote.example/2026/12/pado-audio-jam-2027", "GameNote",
  ["game", "gamejam", "padogames"])

n("n26-yearend-review",
  "올해 개발자 대회 결산: 해커톤 참가자 2만 명 넘어",
  "코드물결이 집계한 2026년 국내 개발자 대회 참가자는 2만 1천 명으로, 해커톤과 CTF 참가가 크게 늘었다.",
  ["코드물결이 2026년 한 해 동안 열린 개발자 대회 140여 개를 집계한 결과 해커톤 참가자는 2만 1천 명으로 처음 2만 명을 넘었다. 은결 CTF 예선은 405팀이 참가해 보안 대회 가운데 가장 컸다.",
   "분야별로는 인공지능 대회가 가장 많았고, 해양·농업 데이터 대회가 전년보다 두 배로 늘었다. 온라인 대회 비율은 58%였다.",
   "참가자 설문에서는 '팀 빌딩이 가장 어렵다'는 응답이 41%로 1위였다."],
  "2026-12-29 10:00", "https://codemulgyeol.example/news/2026/12/yearend-review", "코드물결",
  ["community", "survey", "hackathon"])

n("n26-nodc-budget",
  "국가데이터개방위원회, 2027년 공공데이터 예산 20% 늘려",
  "국가데이터개방위원회가 2027년 공공데이터 개방 예산을 20% 늘리고 API 장애 공시 제도를 도입한다.",
  ["국가데이터개방위원회가 2027년 공공데이터 개방 예산을 2026년보다 20% 늘어난 360억 원으로 확정했다.",
   "증액분은 실시간 API 인프라 지원과 청년 데이터 교육에 쓰인다. 위원회는 1월부터 공공 API의 장애를 24시간 안에 공개하도록 하는 'API 장애 공시 제도'도 시행한다.",
   "해양·교통·농업 분야 기관이 우선 지원 대상이다."],
  "2026-12-30 11:00", "https://techparang.example/2026/12/nodc-2027-budget", "테크파랑",
  ["policy", "opendata", "government"])

# ---------------------------------------------------------------- January 2027
n("n27-durepay-v41-preview",
  "DurePay Open API v4.1 preview adds recurring payments",
  "DurePay previewed Open API v4.1 with recurring-payment endpoints, due for general release on March 30, 2027.",
  ["DurePay has published a preview of Open API v4.1. The new recurring-payment endpoints let merchants set up subscriptions with card or bank-account billing and automatic retry on failure.",
   "v4.1 also adds a currency-conversion quote endpoint for foreign tourists. General availability is set for March 30, 2027, and v4 clients keep working without changes.",
   "A launch hackathon for v4.1 will be held at Dure Tower in Yeouido on April 3-4."],
  "2027-01-05 10:00", "https://fintechnaru.example/2027/01/durepay-v4-1-preview", "Fintech Naru",
  ["fintech", "api", "release", "durepay"])

n("n27-mulmaru-30-beta",
  "물마루 API 3.0 베타 공개…실시간 파고 스트림·웹소켓 지원",
  "물마루 API 3.0 베타가 공개돼 웹소켓으로 실시간 파고를 받을 수 있게 됐다.",
  ["해솔해양데이터재단이 1월 11일 물마루 API 3.0 베타를 공개했다. 웹소켓으로 연안 관측소 100곳의 파고를 1초 간격으로 받는 실시간 스트림과 이안류 위험도 엔드포인트가 추가됐다.",
   "인증 방식은 API 키에서 OAuth 2.0 토큰으로 바뀌었고, 응답 필드 이름은 모두 snake_case로 통일됐다. 2.1과 호환되지 않아 클라이언트 수정이 필요하다.",
   "베타 기간은 2월 10일까지이며, 버그를 제보하면 포인트를 주는 베타 테스트 챌린지가 함께 열린다."],
  "2027-01-11 11:00", "https://codemulgyeol.example/news/2027/01/mulmaru-api-3-beta", "코드물결",
  ["ocean", "api", "release", "mulmaru"])

n("n27-ai-hackathon-survey",
  "CodeMulgyeol survey: 62% of hackathon teams used AI coding assistants",
  "A CodeMulgyeol survey of 2,400 contest participants found that most hackathon teams now use AI coding assistants.",
  ["CodeMulgyeol surveyed 2,400 people who took part in Korean hackathons and CTFs in 2026. Sixty-two percent of hackathon teams said they used an AI coding assistant, up from 35 percent a year earlier.",
   "CTF players were more cautious: only 28 percent used AI tools during a contest, and most said they used them for writing exploit boilerplate rather than finding bugs.",
   "Organisers including Eungyeol Security and Garam Sound Lab say they will publish clearer AI-use rules for 2027 contests."],
  "2027-01-12 10:00", "https://codemulgyeol.example/en/2027/01/ai-assistant-survey", "CodeMulgyeol",
  ["community", "survey", "ai"])

n("n27-nodc-api-disclosure",
  "공공 API 장애 공시 제도 시행…24시간 안에 원인 공개해야",
  "국가데이터개방위원회의 공공 API 장애 공시 제도가 1월 13일부터 시행됐다.",
  ["국가데이터개방위원회가 공공기관 오픈 API 장애 공시 제도를 1월 13일부터 시행했다. 30분 이상 장애가 나면 24시간 안에 원인과 영향 범위를 공개해야 한다.",
   "첫 적용 대상은 해솔해양데이터재단, 도시철길공사, 들마루농업기술원 등 41개 기관이다. 공시 내용은 위원회 누리집에 모아 게시된다.",
   "위원회는 6개월 뒤 제도 운영 결과를 평가해 민간 공공데이터 중개 사업자로 확대할지 정한다."],
  "2027-01-13 10:00", "https://techparang.example/2027/01/public-api-incident-disclosure", "테크파랑",
  ["policy", "opendata", "government"])

n("n27-drone-spray-study",
  "들마루농업기술원, 드론 방제 실증 결과 발표…농약 25% 절감",
  "들마루농업기술원이 논산·익산 논에서 드론 방제를 실증한 결과 농약 사용량이 25% 줄었다고 발표했다.",
  ["들마루농업기술원이 논산·익산 지역 논 120헥타르에서 진행한 드론 방제 실증 결과를 발표했다. 병해충 지도를 바탕으로 필요한 곳에만 약을 뿌린 결과 농약 사용량이 25% 줄었다.",
   "작업 시간은 사람이 직접 뿌릴 때보다 70% 짧았지만, 바람이 초속 4m를 넘으면 정확도가 크게 떨어졌다.",
   "기술원은 2월부터 드론 방제 아이디어 공모전을 열어 현장 문제를 풀 아이디어를 모은다."],
  "2027-01-14 14:00", "https://deulnyeok.example/2027/01/drone-spraying-study", "들녘테크",
  ["agritech", "drone", "research", "deulmaru"])

n("n27-wintercamp-result",
  "새싹 겨울방학 코딩캠프 챌린지 완주자 1,240명",
  "새싹 겨울방학 코딩캠프 챌린지에 3,100명이 참가해 1,240명이 세 가지 미션을 모두 완주했다.",
  ["새싹코딩재단이 12월 28일부터 1월 17일까지 연 겨울방학 코딩캠프 챌린지에 초등 5학년부터 중학 3학년까지 3,100명이 참가했다. 이 가운데 1,240명이 세 미션을 모두 완주했다.",
   "가장 어려웠던 미션은 3주차 '퀴즈 게임 만들기'로 제출률이 52%였다. 상위 50명에게는 코딩 도서가 전달된다.",
   "재단은 7월 광주에서 중학생 대상 여름 코드캠프 대회를 연다고 밝혔다."],
  "2027-01-19 10:00", "https://codemulgyeol.example/news/2027/01/saessak-winter-camp-results", "코드물결",
  ["education", "coding", "results", "saessak"])

n("n27-sorigyeol-501",
  "Sorigyeol SDK 5.0.1 patch fixes iOS crash in stem separation",
  "Garam Sound Lab shipped Sorigyeol SDK 5.0.1 to fix a crash when separating long tracks on iOS.",
  ["Garam Sound Lab has released Sorigyeol SDK 5.0.1, a patch that fixes a crash when the stem separation feature processed tracks longer than eight minutes on iOS.",
   "The patch also cuts the memory use of stem separation by about 30 percent and fixes wrong sample rates in CLAP plug-ins on Linux.",
   "Garam asks participants in the ongoing Garam MusicTech Challenge 2027 to update, since stem separation is mandatory in the student division."],
  "2027-01-20 10:00", "https://devweekly.example/2027/01/sorigyeol-5-0-1", "DevWeekly Korea",
  ["music", "sdk", "release", "sorigyeol"])

n("n27-oyster-mortality",
  "통영 굴 양식장 집단 폐사…해솔재단 데이터톤으로 원인 찾는다",
  "통영 굴 양식장 집단 폐사를 계기로 해솔해양데이터재단이 스마트 양식 데이터톤을 열었다.",
  ["지난여름 통영 굴 양식장에서 집단 폐사가 일어나 피해액이 120억 원으로 집계됐다. 원인으로는 고수온과 용존산소 부족이 함께 지목됐다.",
   "해솔해양데이터재단과 통영바다목장협동조합은 양식장 30곳의 3년치 수온·용존산소 데이터를 공개하고 1월 20일부터 2027 스마트 양식 데이터톤을 열었다.",
   "협동조합은 우수 모델을 올여름 조기 경보 문자 서비스에 적용할 계획이다."],
  "2027-01-21 09:00", "https://badaeconomy.example/2027/01/tongyeong-oyster-datathon", "바다경제",
  ["ocean", "aquaculture", "haesol"])

n("n27-tongyeong-pact",
  "Haesol Foundation and Tongyeong Sea Ranch Cooperative sign a data-sharing pact",
  "The Haesol Marine Data Foundation will add 30 aquaculture farm sensors to Mulmaru API under a new agreement.",
  ["The Haesol Marine Data Foundation and the Tongyeong Sea Ranch Cooperative (통영바다목장협동조합) have signed an agreement to share aquaculture sensor data.",
   "Readings from 30 oyster and mussel farms will be added to Mulmaru API 3.0 as a new aquaculture endpoint, with a one-hour delay to protect farm locations.",
   "Farmers will in return receive free access to Mulmaru's water-temperature forecasts."],
  "2027-01-25 10:00", "https://badaeconomy.example/2027/01/haesol-tongyeong-pact", "Bada Economy",
  ["ocean", "aquaculture", "mulmaru", "haesol"])

n("n27-farmsensor-hackathon-winner",
  "Deulmaru FarmSensor Kit 해커톤 대상은 '물주기알람' 팀",
  "들마루 팜센서 키트 해커톤에서 토양수분 기반 물주기 알림 서비스 '물주기알람'이 대상을 받았다.",
  ["들마루농업기술원이 1월 23~24일 논산 교육관에서 연 팜센서 키트 해커톤에서 3인 팀 '물주기알람'이 대상 500만 원을 받았다. 토양수분 센서 값이 기준 아래로 떨어지면 고령 농민에게 음성 전화로 알려 주는 서비스다.",
   "최우수상은 비닐하우스 환기 시점을 추천하는 '숨쉬는하우스'가 받았다. 24시간 동안 18팀이 참가했다.",
   "기술원은 물주기알람을 논산 농가 50곳에서 시범 운영한다."],
  "2027-01-26 10:00", "https://deulnyeok.example/2027/01/farmsensor-hackathon-winner", "들녘테크",
  ["agritech", "hackathon", "results", "deulmaru"])

n("n27-cheolgil-outage",
  "철길 실시간 도착 정보 4시간 장애…원인은 인증서 만료",
  "철길 실시간 도착 API가 TLS 인증서 만료로 4시간 동안 멈췄다.",
  ["도시철길공사의 철길 실시간 도착 API가 1월 26일 오전 5시부터 9시까지 약 4시간 동안 모든 요청에 연결 오류를 냈다. 서버의 TLS 인증서 갱신이 누락된 것이 원인이었다.",
   "출근 시간대와 겹치면서 도착 정보를 쓰는 지도·교통 앱 20여 개가 잘못된 정보를 보여 줬다.",
   "공사는 공공 API 장애 공시 제도에 따라 다음 날 원인을 공개하고 인증서 자동 갱신을 도입했다."],
  "2027-01-27 10:00", "https://techparang.example/2027/01/cheolgil-api-outage", "테크파랑",
  ["transit", "api", "outage", "cheolgil"])

n("n27-garam-seriesB",
  "Garam Sound Lab, 시리즈 B로 80억 원 투자 유치",
  "Garam Sound Lab raised KRW 8 billion to expand Sorigyeol SDK and open an office in Busan.",
  ["Garam Sound Lab has raised KRW 8 billion in a Series B round. The company says Sorigyeol SDK is now used in about 1,400 apps and plug-ins.",
   "The funding will pay for a team working on stem separation and a second office in Busan, close to partners such as Pado Games.",
   "CEO Lee Garam said the company will keep the free tier of the SDK for students and hobbyists."],
  "2027-01-28 10:00", "https://devweekly.example/2027/01/garam-sound-lab-series-b", "DevWeekly Korea",
  ["music", "funding", "garam"])

n("n27-wildfire-leaderboard",
  "궤도창 산불 감시 챌린지 중간 순위 공개…1위 '잿빛지도'",
  "궤도창 산불 감시 챌린지 중간 순위에서 '잿빛지도' 팀이 1위를 달리고 있다.",
  ["별밭우주연구소가 궤도창 산불 감시 챌린지의 중간 순위를 공개했다. 공개 테스트 세트 기준 1위는 F1 0.83을 기록한 '잿빛지도' 팀이다.",
   "2위 '숲지킴이'(0.81)와 3위 '재의기억'(0.80)이 근소한 차이로 뒤를 쫓고 있다. 최종 순위는 비공개 테스트 세트로 정한다.",
   "대회는 2월 17일 마감되며, 지금까지 190팀이 제출했다."],
  "2027-01-29 16:00", "https://byeolbitnews.example/2027/01/wildfire-watch-leaderboard", "별빛과학신문",
  ["space", "ai", "gwedochang", "byeolbat"])

n("n27-openbanking-challenge",
  "은결보안, 두레페이 오픈뱅킹 보안 챌린지 운영 맡는다",
  "은결보안이 두레페이 오픈 API 샌드박스를 대상으로 하는 오픈뱅킹 보안 챌린지의 운영을 맡았다.",
  ["두레페이가 2월 8일부터 3주 동안 여는 오픈뱅킹 보안 챌린지의 운영을 은결보안이 맡는다. 두 회사가 함께 행사를 여는 것은 처음이다.",
   "은결보안은 제보된 취약점의 심각도를 평가하고, 두레페이는 인증·토큰 관련 취약점에 최대 1,000만 원을 지급한다.",
   "두레페이는 지난 12월 인증 서버 장애 이후 외부 점검을 늘리기로 했다고 설명했다."],
  "2027-01-30 10:00", "https://fintechnaru.example/2027/01/openbanking-security-challenge", "핀테크나루",
  ["fintech", "security", "durepay", "eungyeol"])

n("n27-securecoding-round1",
  "Eungyeol Secure Coding League 1라운드에 900명 참가",
  "About 900 players joined the first round of the Eungyeol Secure Coding League, which used a vulnerable Go web service.",
  ["The first round of the Eungyeol Secure Coding League drew about 900 players. The vulnerable codebase was a Go web service for booking ferry tickets with eleven planted vulnerabilities.",
   "Only 37 players fixed all eleven without breaking the hidden functional tests. Current leader Seo Minjae finished in under six hours.",
   "Round two, released on the first Tuesday of February, uses a Python data pipeline."],
  "2027-01-31 10:00", "https://devweekly.example/2027/01/secure-coding-league-round-1", "DevWeekly Korea",
  ["security", "coding", "eungyeol"])

# ---------------------------------------------------------------- February 2027
n("n27-promptshield-20",
  "PromptShield 2.0 출시…다단계 탈옥 공격 막는다",
  "은결보안이 여러 번의 대화에 걸친 탈옥 시도를 탐지하는 PromptShield 2.0을 출시했다.",
  ["은결보안이 대규모 언어 모델 서비스용 보안 필터 PromptShield(프롬프트실드) 2.0을 출시했다. 1.0은 질문 하나씩만 검사했지만, 2.0은 최근 대화 20턴을 함께 보고 여러 단계에 걸친 탈옥 시도를 잡아낸다.",
   "요청당 지연 시간은 1.0의 30ms에서 18ms로 줄었고, 일본어 지원이 추가됐다.",
   "은결보안은 2.0 출시 전 일주일 동안 레드팀 챌린지를 열어 외부 참가자의 공격 결과를 반영했다."],
  "2027-02-02 10:00", "https://codemulgyeol.example/news/2027/02/promptshield-2-0", "코드물결",
  ["security", "ai", "release", "promptshield"])

n("n27-mulmaru-30-date",
  "물마루 API 3.0 정식 출시일 3월 2일로 확정",
  "해솔해양데이터재단이 물마루 API 3.0 정식 출시일을 3월 2일로 확정하고 베타 제보 1,100건을 반영했다.",
  ["해솔해양데이터재단이 물마루 API 3.0 정식 출시일을 3월 2일로 확정했다. 베타 기간에 접수된 제보 1,100건 가운데 380건이 수정됐다.",
   "정식 버전에서는 통영 양식장 데이터 엔드포인트가 추가되고, 웹소켓 스트림의 동시 연결 한도가 키당 5개에서 20개로 늘어난다.",
   "재단은 3월 6일 시작하는 2027 해솔 오션 해커톤 예선 참가자에게 3.0 전용 키를 발급한다."],
  "2027-02-04 10:00", "https://badaeconomy.example/2027/02/mulmaru-3-0-release-date", "바다경제",
  ["ocean", "api", "release", "mulmaru"])

n("n27-redteam-results",
  "PromptShield Red Team Challenge results: 143 bypasses found",
  "Participants found 143 valid bypasses during the PromptShield Red Team Challenge, and Han Jiwoo was the top finder.",
  ["Eungyeol Security has published the results of its week-long PromptShield Red Team Challenge. Participants submitted 1,020 attack reports, of which 143 were confirmed as valid bypasses.",
   "The top finder, independent researcher Han Jiwoo, reported 21 bypasses, mostly multi-turn jailbreaks written in mixed Korean and English. She receives KRW 5 million.",
   "All confirmed bypasses were fixed before the release of PromptShield 2.0."],
  "2027-02-08 10:00", "https://devweekly.example/2027/02/promptshield-red-team-results", "DevWeekly Korea",
  ["security", "ai", "results", "promptshield"])

n("n27-dure-busan-campus",
  "두레페이, 부산 문현 두레캠퍼스 개관…외국인 관광객 결제 지원 확대",
  "두레페이가 부산 문현동에 개발자 캠퍼스를 열고 외국인 관광객 결제 지원을 늘린다.",
  ["두레페이가 2월 8일 부산 문현동에 개발자 캠퍼스 '두레캠퍼스'를 열었다. 300석 규모 행사장과 스타트업 입주 공간 40실을 갖췄다.",
   "두레페이는 외국 카드와 해외 간편결제로 국내 가맹점에서 결제할 수 있는 기능을 상반기에 출시한다.",
   "3월 27~28일 열리는 2027 두레 핀테크 아이디어톤이 캠퍼스의 첫 공식 행사다."],
  "2027-02-09 10:00", "https://fintechnaru.example/2027/02/dure-busan-campus", "핀테크나루",
  ["fintech", "durepay", "facility"])

n("n27-plugin-marathon-day1",
  "소리결 플러그인 마라톤 오늘 개막…첫날 참가 신청 600명",
  "가람사운드랩의 소리결 플러그인 마라톤이 2월 10일 개막해 첫날에만 600명이 참가를 신청했다.",
  ["가람사운드랩이 한 달 동안 진행하는 소리결 플러그인 마라톤(Sorigyeol Plugin Marathon)이 2월 10일 개막했다. 개막 첫날 참가 신청자는 600명이다.",
   "참가자는 소리결 SDK 5.0으로 오디오 이펙트 플러그인을 만들고 매주 수요일 진행 상황을 공유한다. 첫 번째 과제는 '테이프 에코' 이펙트다.",
   "가람사운드랩은 5.0.1 패치 이후 CLAP 형식 플러그인 제출이 가장 많을 것으로 보고 있다."],
  "2027-02-10 15:00", "https://codemulgyeol.example/news/2027/02/plugin-marathon-day-1", "코드물결",
  ["music", "sdk", "plugin", "garam"])
