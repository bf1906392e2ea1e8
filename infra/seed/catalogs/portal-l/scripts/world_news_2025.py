# -*- coding: utf-8 -*-
"""News articles published in 2025 (portal-l catalog).

Every entry: key, title, summary, paragraphs (3), published ("YYYY-MM-DD HH:MM", Asia/Seoul),
url, source, tags.  generate.py turns the key into an n-<16 hex> id.
"""

N = []


def n(key, title, summary, paras, published, url, source, tags):
    assert len(paras) == 3, key
    N.append(dict(key=key, title=title, summary=summary, paras=paras,
                  published=published, url=url, source=source, tags=tags))


n("n25-haesol-center",
  "해솔해양데이터재단, 부산 영도에 해솔센터 개관",
  "해솔해양데이터재단이 부산 영도에 해양 데이터 연구·교육 시설인 해솔센터를 열었다.",
  ["해솔해양데이터재단(Haesol Marine Data Foundation)이 2월 24일 부산 영도구에 해솔센터를 개관했다. 지상 5층 규모로 데이터 분석실과 200석 규모의 강당을 갖췄다.",
   "재단은 이 건물에서 연안 부이 관측 데이터를 수집·정제하는 물마루 API 운영팀을 함께 운영한다. 센터 강당은 앞으로 해솔 오션 해커톤 본선 장소로 쓰일 예정이다.",
   "초대 센터장을 맡은 윤서진 박사는 '어민과 개발자가 같은 데이터를 보는 공간을 만들겠다'고 말했다."],
  "2025-02-25 10:30", "https://badaeconomy.example/2025/02/haesol-center-opens", "바다경제",
  ["ocean", "haesol", "facility"])

n("n25-mulmaru-20",
  "물마루 2.0 정식 출시…조위 데이터 10분 간격 제공",
  "해솔해양데이터재단이 연안 관측 데이터 서비스 물마루 API 2.0을 정식 출시하고 조위 엔드포인트를 추가했다.",
  ["해솔해양데이터재단이 연안 관측 데이터 서비스 물마루 API(Mulmaru API) 2.0을 정식 출시했다. 이번 버전에서는 전국 연안 부이 48곳의 조위(밀물·썰물 높이) 데이터를 10분 간격으로 받을 수 있는 엔드포인트가 추가됐다.",
   "무료 할당량은 하루 1만 회 호출로 1.x 때의 두 배가 됐고, 응답 형식은 JSON과 CSV 가운데 고를 수 있다. 기존 1.x 엔드포인트는 2025년 말까지 함께 운영된다.",
   "재단은 5월 열리는 해솔 오션 해커톤 예선에서 물마루 API 2.0을 기본 데이터로 제공한다고 밝혔다."],
  "2025-02-18 09:00", "https://codemulgyeol.example/news/2025/02/mulmaru-api-2-0", "코드물결",
  ["ocean", "api", "release", "mulmaru"])

n("n25-sorigyeol-40",
  "Sorigyeol SDK 4.0 ships with MIDI 2.0 support and a new Web Audio backend",
  "Garam Sound Lab released Sorigyeol SDK 4.0, adding MIDI 2.0 and a browser audio backend.",
  ["Garam Sound Lab (가람사운드랩) has released version 4.0 of Sorigyeol SDK, its toolkit for music apps and audio plug-ins. The headline features are full MIDI 2.0 support and a new Web Audio backend that lets the same code run in the browser.",
   "The release also drops support for 32-bit Windows and raises the minimum Android version to 10. Developers on 3.x can migrate with an automatic conversion tool that rewrites about 80 percent of the changed calls.",
   "Garam says 4.0 will be the required version for the student division of this autumn's Garam MusicTech Challenge."],
  "2025-03-05 14:00", "https://devweekly.example/2025/03/sorigyeol-sdk-4", "DevWeekly Korea",
  ["music", "sdk", "release", "sorigyeol"])

n("n25-nodc-plan",
  "국가데이터개방위원회, 공공데이터 개방 3개년 계획 발표",
  "국가데이터개방위원회가 교통·해양·농업 분야를 중심으로 한 공공데이터 개방 3개년 계획을 내놓았다.",
  ["국가데이터개방위원회(National Open Data Commission)가 2025~2027년 공공데이터 개방 3개년 계획을 발표했다. 교통, 해양, 농업 세 분야의 원천 데이터를 우선 개방 대상으로 정했다.",
   "계획에 따르면 공공기관은 2027년까지 주요 데이터의 80%를 오픈 API로 제공해야 하며, 데이터 품질 등급을 매년 공개해야 한다.",
   "위원회는 대학생과 청년 개발자를 위한 데이터 활용 공모전 예산도 해마다 늘리겠다고 밝혔다."],
  "2025-03-20 11:00", "https://techparang.example/2025/03/nodc-three-year-plan", "테크파랑",
  ["policy", "opendata", "government"])

n("n25-durepay-v3",
  "DurePay Open API v3 adds a sandbox for merchant settlement",
  "DurePay released version 3 of its Open API with a full sandbox for testing merchant settlement.",
  ["Seoul fintech company DurePay (두레페이) has released Open API v3. The biggest change is a sandbox environment where developers can simulate card payments, refunds and daily merchant settlement without moving real money.",
   "v3 also switches authentication from static API keys to OAuth 2.0 client credentials, and webhooks now retry up to five times with exponential backoff.",
   "DurePay says the sandbox will be the official environment for its Fintech Ideathon in November."],
  "2025-04-15 10:00", "https://fintechnaru.example/2025/04/durepay-open-api-v3", "Fintech Naru",
  ["fintech", "api", "release", "durepay"])

n("n25-saessak-q-result",
  "2025 새싹 주니어 코딩대회 예선에 4,200명 참가",
  "새싹코딩재단이 주최한 2025 새싹 주니어 코딩대회 온라인 예선에 초·중·고 학생 4,200명이 참가했다.",
  ["새싹코딩재단은 4월 12일 열린 2025 새싹 주니어 코딩대회 예선에 초·중·고 학생 4,200명이 참가했다고 밝혔다. 지난해보다 35% 늘어난 수치다.",
   "본선 진출 기준 점수는 초등부 300점, 중등부 420점, 고등부 480점(600점 만점)으로 정해졌다. 가장 많이 쓰인 언어는 파이썬(61%)이었다.",
   "본선은 5월 24일 광주 새싹코딩센터에서 학년군별 상위 30명이 참가한 가운데 열린다."],
  "2025-04-28 16:00", "https://codemulgyeol.example/news/2025/04/saessak-junior-qualifier", "코드물결",
  ["education", "coding", "results", "saessak"])

n("n25-deulmaru-research",
  "들마루농업기술원, 딸기 온실 양액 제어로 탄소 배출 30% 줄여",
  "들마루농업기술원 연구진이 센서 기반 양액 제어로 딸기 온실의 탄소 배출을 30% 줄였다는 연구 결과를 발표했다.",
  ["들마루농업기술원(Deulmaru AgriTech Institute) 연구진이 충남 논산 시험온실에서 1년 동안 진행한 양액 제어 실험 결과를 발표했다. 온습도와 일사량 센서 값에 따라 양액 공급량을 자동 조절했더니 난방·펌프 에너지가 줄어 탄소 배출이 30% 감소했다.",
   "수확량은 기존 재배 방식과 비슷한 수준을 유지했다. 연구에 쓰인 센서 데이터 일부는 들마루 스마트팜 데이터 챌린지 참가자에게도 공개됐다.",
   "연구 책임자 오태민 박사는 '저가형 센서 키트를 농가에 보급하는 것이 다음 목표'라고 밝혔다."],
  "2025-05-14 13:00", "https://deulnyeok.example/2025/05/deulmaru-strawberry-carbon", "들녘테크",
  ["agritech", "research", "deulmaru"])

n("n25-saessak-f-result",
  "Saessak Junior 2025 본선 결과: 대상은 광주 가온중 김하린 학생",
  "2025 새싹 주니어 코딩대회 본선에서 광주 가온중학교 2학년 김하린 학생이 대상을 받았다.",
  ["5월 24일 광주 새싹코딩센터에서 열린 2025 새싹 주니어 코딩대회(Saessak Junior Coding Contest) 본선에서 가온중학교 2학년 김하린 학생이 7문제를 모두 풀어 전체 대상을 차지했다.",
   "김 학생은 노트북과 장학금 100만 원을 받았다. 초등부 1위는 누리초 6학년 정민호, 고등부 1위는 한빛고 2학년 서예준 학생이다.",
   "새싹코딩재단은 내년부터 초등 3~4학년을 위한 블록코딩 부문을 예선에 추가한다고 밝혔다."],
  "2025-05-28 10:00", "https://codemulgyeol.example/news/2025/05/saessak-junior-finals", "코드물결",
  ["education", "coding", "results", "saessak"])

n("n25-cheolgil-api",
  "Cheolgil real-time arrival API opens to public developers",
  "Dosi Rail Corporation opened its Cheolgil real-time train arrival API to all developers.",
  ["Dosi Rail Corporation (도시철길공사) has opened the Cheolgil real-time arrival API (철길 실시간 도착 API) to the public. It returns predicted arrival times for every platform on the company's five subway lines, refreshed every 20 seconds.",
   "Registration is free and the default limit is 50,000 calls per day. Station congestion and transfer data remain available as daily CSV files.",
   "The company says the API will be part of the data set for this summer's Cheolgil open data contest."],
  "2025-06-05 09:30", "https://techparang.example/2025/06/cheolgil-arrival-api", "TechParang",
  ["transit", "api", "release", "cheolgil"])

n("n25-deulmaru-winner",
  "들마루 스마트팜 데이터 챌린지 1위는 '딸기시계' 팀",
  "들마루 스마트팜 데이터 챌린지에서 딸기 수확량을 가장 정확히 예측한 '딸기시계' 팀이 1위에 올랐다.",
  ["들마루농업기술원이 연 스마트팜 데이터 챌린지에서 3인 팀 '딸기시계'가 MAE 0.42kg으로 1위를 차지했다. 팀원은 모두 가온대학교 산업공학과 학생이다.",
   "2위는 농업 스타트업 '초록셈'(MAE 0.47kg), 3위는 개인 참가자 문재원 씨였다. 1위 팀은 상금 600만 원과 팜센서 키트 10세트를 받았다.",
   "기술원은 우승 모델을 논산 지역 딸기 농가 5곳에서 시범 운영할 계획이다."],
  "2025-06-10 15:00", "https://deulnyeok.example/2025/06/smartfarm-challenge-winner", "들녘테크",
  ["agritech", "results", "deulmaru"])

n("n25-pado-seriesA",
  "Pado Games, 30억 원 Series A 투자 유치",
  "Indie studio Pado Games closed a KRW 3 billion Series A round to build music-driven games.",
  ["Busan-based indie studio Pado Games (파도게임즈) has raised KRW 3 billion in a Series A round led by the fictional fund Blue Lantern Ventures. The studio has 18 employees.",
   "Pado Games plans to use the money to finish 'Mulgyeolsori', a rhythm exploration game whose soundtrack adapts to the player through Sorigyeol SDK.",
   "Co-founder Choi Yerin said the studio will keep co-hosting game jams with Garam Sound Lab, starting with the Tidal Sound Game Jam in June."],
  "2025-06-25 11:00", "https://gamenote.example/2025/06/pado-games-series-a", "GameNote",
  ["game", "funding", "padogames"])

n("n25-cubesat-2025-winners",
  "제3회 별밭 큐브샛 설계 경진대회 수상팀 발표",
  "별밭 큐브샛 설계 경진대회 2025 학생 부문은 한빛대 '오름' 팀, 일반 부문은 스타트업 솔개위성이 대상을 받았다.",
  ["별밭우주연구소가 제3회 별밭 큐브샛 설계 경진대회 결과를 발표했다. 학생 부문 대상은 한빛대학교 항공우주공학과 5인 팀 '오름'이 받았다. 오름은 연안 적조를 감시하는 1U 큐브샛 임무를 설계했다.",
   "일반 부문 대상은 대전 스타트업 솔개위성이 차지했다. 솔개위성은 궤도창 위성영상과 연계한 3U 농작물 작황 관측 임무로 상금 2,000만 원을 받았다.",
   "학생 부문 대상팀은 올가을 성층권 풍선 시험에서 시제품을 띄울 예정이다."],
  "2025-07-03 10:00", "https://byeolbitnews.example/2025/07/cubesat-cup-2025-winners", "별빛과학신문",
  ["space", "cubesat", "results", "byeolbat"])

n("n25-haesol-2025-winner",
  "2025 해솔 오션 해커톤 본선 대상은 '물때알림' 팀",
  "부산 영도 해솔센터에서 열린 2025 해솔 오션 해커톤 본선에서 '물때알림' 팀이 대상을 받았다.",
  ["7월 12~13일 부산 영도 해솔센터에서 열린 2025 해솔 오션 해커톤 본선에서 4인 팀 '물때알림'이 대상을 차지했다. 이 팀은 물마루 API 조위 데이터로 갯벌 체험객에게 물때를 알려 주는 앱을 만들었다.",
   "최우수상은 어선용 부이 고장 탐지 서비스를 만든 '부이지기'와 해수욕장 혼잡 예보를 만든 '바다숨'이 받았다. 대상 상금은 1,500만 원이다.",
   "심사위원장 윤서진 해솔센터장은 '데이터를 현장에 바로 쓸 수 있게 만든 팀이 높은 점수를 받았다'고 말했다."],
  "2025-07-15 17:00", "https://badaeconomy.example/2025/07/haesol-hackathon-2025-winner", "바다경제",
  ["ocean", "hackathon", "results", "haesol"])

n("n25-mulmaru-outage",
  "Mulmaru API outage leaves a 9-hour gap in buoy data",
  "A storage failure at the Haesol Marine Data Foundation took Mulmaru API offline for nine hours.",
  ["Mulmaru API (물마루 API), the coastal buoy data service run by the Haesol Marine Data Foundation, was unavailable for about nine hours on July 29 after a storage array failed at its Yeongdo data centre.",
   "Requests returned HTTP 503 errors from 02:10 to 11:20 KST, and tide readings for that period were lost for 11 of the 48 buoys. Data for the other buoys was restored from on-device backups.",
   "The foundation said it will add a second storage site in Ulsan and publish incident reports within 72 hours of any future outage."],
  "2025-07-30 09:00", "https://devweekly.example/2025/07/mulmaru-outage", "DevWeekly Korea",
  ["ocean", "api", "outage", "mulmaru"])

n("n25-byeolbat-radio",
  "Byeolbat Space Institute publishes low-power CubeSat radio study",
  "Researchers at Byeolbat Space Institute showed a CubeSat radio that uses 40 percent less power.",
  ["A team at Byeolbat Space Institute (별밭우주연구소) in Daejeon has published a study on a low-power UHF radio for small satellites. In ground tests, the design used 40 percent less power than the institute's previous radio while keeping the same 9,600 bps data rate.",
   "The radio will fly on BS-2, the institute's next 2U CubeSat, which is scheduled for launch at the end of 2026 with Eunha Launch Services (은하발사서비스).",
   "The authors have released the board schematics under an open hardware licence."],
  "2025-08-05 10:00", "https://byeolbitnews.example/2025/08/low-power-cubesat-radio", "Byeolbit Science News",
  ["space", "research", "cubesat", "byeolbat"])

n("n25-ctf-quals-2025",
  "Eungyeol CTF 2025 예선 결과: 312팀 중 20팀 본선행",
  "은결 CTF 2025 온라인 예선에 312팀이 참가해 일반 15팀과 대학 5팀이 본선에 진출했다.",
  ["은결보안(Eungyeol Security)이 8월 16~17일 진행한 은결 CTF 2025 예선에 312팀이 참가했다. 24시간 동안 포너블, 웹, 암호, 리버싱, 포렌식 5개 분야 30문제가 출제됐다.",
   "예선 1위는 'NullMari' 팀으로 30문제 중 27문제를 풀었다. 상위 15팀과 대학팀 상위 5팀 등 모두 20팀이 10월 본선에 진출했다.",
   "가장 적게 풀린 문제는 펌웨어 추출이 필요한 리버싱 문제로 단 2팀만 풀었다."],
  "2025-08-20 14:00", "https://codemulgyeol.example/news/2025/08/eungyeol-ctf-2025-quals", "코드물결",
  ["ctf", "security", "results", "eungyeol"])

n("n25-cheolgil-2025-winner",
  "철길 공공데이터 활용 공모전 대상에 '환승지도' 앱",
  "2025 철길 공공데이터 활용 공모전에서 환승 동선을 안내하는 '환승지도' 앱이 대상을 받았다.",
  ["도시철길공사가 2025 철길 공공데이터 활용 공모전 결과를 발표했다. 대상은 역별 혼잡도와 환승 데이터를 결합해 덜 붐비는 환승 통로를 알려 주는 '환승지도' 앱이 받았다.",
   "환승지도는 대학생 2명이 만든 팀 작품으로, 상금 500만 원을 받았다. 모두 12팀이 상을 받았고, 최우수상은 출퇴근 혼잡 예보 챗봇 '붐비나'였다.",
   "공사는 수상작 일부를 실제 역 안내 화면에 시범 적용할 예정이다."],
  "2025-09-03 11:00", "https://techparang.example/2025/09/cheolgil-opendata-2025-winner", "테크파랑",
  ["opendata", "transit", "results", "cheolgil"])

n("n25-gwedochang-free",
  "궤도창 위성영상 플랫폼, 무료 등급 월 200장으로 확대",
  "별밭우주연구소가 궤도창 위성영상 플랫폼의 무료 이용 한도를 월 200장으로 늘렸다.",
  ["별밭우주연구소가 위성영상 플랫폼 궤도창(Gwedochang)의 무료 등급을 월 50장에서 200장으로 확대했다. 해상도 3m급 다중분광 영상이 대상이다.",
   "연구소는 남해안 양식장 영상 1만 장을 라벨과 함께 공개하고, 이를 활용한 위성영상 분석 챌린지를 9월 15일부터 연다고 밝혔다.",
   "궤도창은 2023년 서비스를 시작해 현재 1,800개 기관과 개인이 쓰고 있다."],
  "2025-09-18 10:00", "https://byeolbitnews.example/2025/09/gwedochang-free-tier", "별빛과학신문",
  ["space", "platform", "release", "gwedochang"])

n("n25-pasukkun-10",
  "Pasukkun 1.0: Eungyeol Security open-sources its vulnerability scanner",
  "Eungyeol Security released Pasukkun 1.0, its in-house vulnerability scanner, as open source.",
  ["Eungyeol Security has released Pasukkun (파수꾼) 1.0 under the Apache 2.0 licence. The scanner had been used internally for three years to audit web services and ships with 620 detection rules for Java, Python and JavaScript.",
   "Pasukkun runs as a command-line tool or a CI step and outputs SARIF reports. Rules are written in a small YAML-based language so that outside contributors can add their own.",
   "Eungyeol plans a bug bounty sprint on the scanner itself in December."],
  "2025-10-01 09:00", "https://devweekly.example/2025/10/pasukkun-1-0", "DevWeekly Korea",
  ["security", "opensource", "release", "pasukkun"])

n("n25-sorigyeol-41",
  "소리결 4.1 업데이트로 안드로이드 지연시간 40% 줄어",
  "가람사운드랩이 소리결 SDK 4.1을 내놓고 안드로이드 오디오 지연시간을 40% 줄였다.",
  ["가람사운드랩이 음악 개발 도구 소리결 SDK 4.1을 배포했다. 새 저지연 오디오 경로 덕분에 안드로이드 기기의 입력-출력 지연시간이 평균 40% 줄었다.",
   "4.1에는 한국 전통 음계(평조·계면조) 프리셋도 추가됐다. 4.0에서 만든 프로젝트는 수정 없이 그대로 빌드된다.",
   "회사는 현재 진행 중인 가람 뮤직테크 챌린지 참가자도 4.1로 업데이트할 수 있다고 안내했다."],
  "2025-10-15 15:00", "https://codemulgyeol.example/news/2025/10/sorigyeol-4-1", "코드물결",
  ["music", "sdk", "release", "sorigyeol"])

n("n25-ctf-finals-2025",
  "은결 CTF 2025 본선 우승은 'NullMari' 팀",
  "서울 마곡 은결홀에서 열린 은결 CTF 2025 본선에서 NullMari 팀이 우승했다.",
  ["10월 25일 서울 마곡 은결홀에서 열린 은결 CTF 2025 본선에서 4인 팀 'NullMari'가 공격·방어 점수 합계 1위로 우승했다. 우승 상금은 2,000만 원이다.",
   "준우승은 '0xGull', 3위는 가온대 보안동아리 'GASP'가 차지했다. GASP는 대학팀 가운데 최고 성적이다.",
   "은결보안은 내년 대회부터 팀 인원을 5명으로 늘리고 하드웨어 분야를 추가하는 방안을 검토하고 있다고 밝혔다."],
  "2025-10-28 10:00", "https://codemulgyeol.example/news/2025/10/eungyeol-ctf-2025-finals", "코드물결",
  ["ctf", "security", "results", "eungyeol"])

n("n25-pado-mulgyeolsori",
  "파도게임즈 신작 '물결소리' 출시…플레이어 움직임 따라 음악 바뀐다",
  "파도게임즈가 소리결 기반 적응형 음악을 쓴 리듬 탐험 게임 '물결소리'를 출시했다.",
  ["부산의 인디 게임사 파도게임즈(Pado Games)가 리듬 탐험 게임 '물결소리'를 PC와 모바일로 출시했다. 플레이어가 바닷속을 헤엄치는 속도와 방향에 따라 배경음악의 악기 구성이 실시간으로 바뀐다.",
   "음악 시스템은 가람사운드랩의 소리결 SDK 4.1로 만들었다. 출시 첫 주 판매량은 4만 장이다.",
   "파도게임즈는 내년 초 게임 음악을 주제로 한 온라인 잼을 다시 열 계획이다."],
  "2025-11-03 12:00", "https://gamenote.example/2025/11/pado-mulgyeolsori-launch", "게임노트",
  ["game", "music", "release", "padogames"])

n("n25-musictech-2025-winners",
  "Garam MusicTech Challenge 2025 winners announced",
  "Team HumTab won the student division and team Bakjanamu the general division of the 2025 Garam MusicTech Challenge.",
  ["Garam Sound Lab has announced the winners of the 2025 Garam MusicTech Challenge after the final demos at Sorimaru Hall in Seongsu. In the student division, three Nuri University students took first prize with HumTab, an app that turns a hummed melody into guitar tablature.",
   "The general division grand prize of KRW 10 million went to Bakjanamu (박자나무), a rhythm-training tool for hearing-impaired drummers that uses vibration feedback.",
   "The HumTab team will also interview for internships at Garam Sound Lab, as promised in the student division rules."],
  "2025-11-12 16:00", "https://devweekly.example/2025/11/garam-musictech-2025-winners", "DevWeekly Korea",
  ["music", "results", "garam"])

n("n25-dure-ideathon-2025",
  "두레 핀테크 아이디어톤 2025, 대상은 '장부다람쥐'",
  "여의도 두레타워에서 열린 두레 핀테크 아이디어톤 2025에서 소상공인 장부 자동화 서비스 '장부다람쥐'가 대상을 받았다.",
  ["두레페이가 11월 22~23일 여의도 두레타워에서 연 핀테크 아이디어톤에서 '장부다람쥐' 팀이 대상을 받았다. 카드 매출과 현금 영수증을 자동으로 묶어 간이 장부를 만들어 주는 서비스다.",
   "장부다람쥐는 두레페이 오픈 API v3 샌드박스의 정산 기능을 활용했다. 최우수상은 시장 상인용 음성 결제 알림 '딸랑'에 돌아갔다.",
   "총상금 1,500만 원 가운데 대상 팀은 600만 원을 받았다."],
  "2025-11-26 11:00", "https://fintechnaru.example/2025/11/dure-ideathon-2025", "핀테크나루",
  ["fintech", "ideathon", "results", "durepay"])

n("n25-gwedochang-winner",
  "궤도창 위성영상 분석 챌린지 최종 순위 발표…1위 '남해바둑판'",
  "궤도창 위성영상 분석 챌린지에서 양식장 영역을 가장 정확히 분할한 '남해바둑판' 팀이 1위를 차지했다.",
  ["별밭우주연구소가 궤도창 위성영상 분석 챌린지의 최종 순위를 발표했다. 남해안 양식장 영역 분할 과제에서 5인 팀 '남해바둑판'이 mIoU 0.78로 1위에 올랐다.",
   "2위는 '김발탐지기'(0.76), 3위는 해솔해양데이터재단 연구원 출신 개인 참가자 한도윤 씨(0.75)였다. 참가팀은 모두 214팀이다.",
   "연구소는 상위 모델을 궤도창의 양식장 자동 분류 기능에 반영할 예정이다."],
  "2025-12-08 10:00", "https://byeolbitnews.example/2025/12/gwedochang-challenge-results", "별빛과학신문",
  ["space", "ai", "results", "gwedochang"])

n("n25-durepay-outage",
  "DurePay Open API outage delays merchant payouts for three hours",
  "A database failover bug at DurePay delayed settlement payouts to small merchants for about three hours.",
  ["DurePay's Open API returned errors on its settlement endpoints for about three hours on December 13, delaying payouts to roughly 21,000 small merchants. Card approvals were not affected.",
   "The company traced the incident to a database failover script that pointed write traffic at a read-only replica. Payouts were completed the same evening.",
   "DurePay said it will publish a status page with per-endpoint uptime and compensate affected merchants with one month of fee-free transactions."],
  "2025-12-15 09:00", "https://fintechnaru.example/2025/12/durepay-api-outage", "Fintech Naru",
  ["fintech", "api", "outage", "durepay"])

n("n25-nodc-realtime",
  "국가데이터개방위원회, 2026년부터 해양·농업 데이터 실시간 개방 의무화",
  "국가데이터개방위원회가 해양 관측과 농업 센서 데이터를 2026년 하반기부터 실시간으로 개방하도록 의무화했다.",
  ["국가데이터개방위원회가 공공기관이 수집하는 해양 관측 데이터와 농업 시험장 센서 데이터를 2026년 7월부터 실시간 오픈 API로 공개하도록 하는 지침을 확정했다.",
   "대상 기관은 해솔해양데이터재단과 들마루농업기술원 등 14곳이다. 갱신 주기가 1시간을 넘으면 품질 등급이 한 단계 낮아진다.",
   "위원회는 데이터 공개 비용을 돕기 위해 2026년 예산 30억 원을 배정했다."],
  "2025-12-22 14:00", "https://techparang.example/2025/12/nodc-realtime-open-data", "테크파랑",
  ["policy", "opendata", "government"])
