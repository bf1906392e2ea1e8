# -*- coding: utf-8 -*-
"""News articles published January-November 2026 (portal-l catalog)."""

N = []


def n(key, title, summary, paras, published, url, source, tags):
    assert len(paras) == 3, key
    N.append(dict(key=key, title=title, summary=summary, paras=paras,
                  published=published, url=url, source=source, tags=tags))


n("n26-promptshield-10",
  "Eungyeol Security launches PromptShield, a guardrail for LLM apps",
  "Eungyeol Security released PromptShield 1.0, a filter that blocks prompt-injection attacks on chatbot services.",
  ["Eungyeol Security (은결보안) has launched PromptShield (프롬프트실드) 1.0, a guardrail that sits between users and a large language model and blocks prompt-injection and data-leak attempts.",
   "Version 1.0 supports Korean and English prompts and adds about 30 ms of latency per request. It is sold as a hosted service, with a free tier of 100,000 checks a month.",
   "The company says three Korean banks are already testing it in customer-service chatbots."],
  "2026-01-12 10:00", "https://devweekly.example/2026/01/promptshield-launch", "DevWeekly Korea",
  ["security", "ai", "release", "promptshield"])

n("n26-mulmaru-21",
  "물마루 API 2.1 출시: 수온 예측 엔드포인트 추가",
  "물마루 API 2.1에 연안 수온을 72시간 앞까지 예측하는 엔드포인트가 추가됐다.",
  ["해솔해양데이터재단이 물마루 API 2.1을 배포했다. 가장 큰 변화는 연안 부이 48곳의 수온을 72시간 앞까지 1시간 단위로 예측해 주는 /forecast/sst 엔드포인트다.",
   "2.1에서는 관측소 목록 조회에 페이지네이션이 도입됐고, 하루 무료 호출 한도는 2.0과 같은 1만 회로 유지됐다. 2.0 클라이언트는 그대로 동작한다.",
   "재단은 수온 예측 데이터가 양식 어가의 고수온 피해 대비에 쓰일 것으로 기대한다고 밝혔다."],
  "2026-01-27 09:00", "https://codemulgyeol.example/news/2026/01/mulmaru-api-2-1", "코드물결",
  ["ocean", "api", "release", "mulmaru"])

n("n26-pasukkun-bounty-result",
  "Pasukkun Bug Bounty Sprint 결과: 버그 47건, 최고 보상 500만 원",
  "파수꾼 버그 바운티 스프린트에서 유효 버그 47건이 접수됐고 최고 보상 500만 원은 이도윤 씨가 받았다.",
  ["은결보안이 2025년 12월 한 달 동안 진행한 파수꾼(Pasukkun) 버그 바운티 스프린트 결과를 공개했다. 모두 63명이 참가해 유효 버그 47건을 제보했다.",
   "최고 보상 500만 원은 탐지 규칙 파서의 원격 코드 실행 취약점을 찾은 이도윤 씨에게 돌아갔다. 가장 많은 버그(9건)를 제보한 사람은 대학생 강하늘 씨다.",
   "은결보안은 제보된 버그를 모두 고친 파수꾼 1.3을 함께 배포했다."],
  "2026-01-09 11:00", "https://codemulgyeol.example/news/2026/01/pasukkun-bounty-results", "코드물결",
  ["security", "bugbounty", "results", "pasukkun"])

n("n26-durepay-funding",
  "DurePay raises KRW 12 billion to expand its Open API",
  "DurePay closed a KRW 12 billion Series C round and will spend it on Open API v4 and a Busan campus.",
  ["DurePay (두레페이) has raised KRW 12 billion in a Series C round. The company processes payments for about 180,000 small merchants.",
   "Most of the money will go to Open API v4, due in March, and to a new developer campus in Munhyeon, Busan, which is expected to open in early 2027.",
   "CEO Park Jiwon said DurePay will double its developer-relations team and run more contests for outside developers this year."],
  "2026-02-24 10:00", "https://fintechnaru.example/2026/02/durepay-series-c", "Fintech Naru",
  ["fintech", "funding", "durepay"])

n("n26-durepay-v4",
  "두레페이 오픈 API v4 출시…전자영수증·가맹점 정산 기능 공개",
  "두레페이가 전자영수증 발급과 가맹점 정산 조회 기능을 담은 오픈 API v4를 출시했다.",
  ["두레페이가 오픈 API v4를 정식 출시했다. 전자영수증 발급 API와 가맹점별 정산 내역 조회 API가 새로 추가됐고, 응답 속도는 v3보다 평균 35% 빨라졌다.",
   "v4부터는 결제 취소 요청에 멱등성 키(Idempotency-Key) 헤더가 필수다. v3는 2026년 12월 31일에 지원이 종료된다.",
   "두레페이는 v4 출시를 기념해 3월 16일부터 오픈API 개발자 컨테스트를 연다."],
  "2026-03-03 10:00", "https://fintechnaru.example/2026/03/durepay-open-api-v4", "핀테크나루",
  ["fintech", "api", "release", "durepay"])

n("n26-sorigyeol-42",
  "Sorigyeol SDK 4.2 brings real-time pitch tracking",
  "Sorigyeol SDK 4.2 adds a real-time pitch tracker that works on phones with under 10 ms of delay.",
  ["Garam Sound Lab has released Sorigyeol SDK 4.2. The main addition is a real-time pitch tracking module that follows a singer or instrument with under 10 ms of delay on recent phones.",
   "4.2 also adds Swift package support and fixes a long-standing bug where Bluetooth headphones doubled the audio latency on Android.",
   "Garam recommends the pitch tracker for entries in the student division of the 2026 Garam MusicTech Challenge."],
  "2026-03-18 14:00", "https://devweekly.example/2026/03/sorigyeol-sdk-4-2", "DevWeekly Korea",
  ["music", "sdk", "release", "sorigyeol"])

n("n26-farmsensor-v2",
  "들마루 팜센서 키트 v2 공개…가격은 절반으로",
  "들마루농업기술원이 가격을 절반으로 낮춘 스마트팜 센서 키트 v2를 공개했다.",
  ["들마루농업기술원이 소규모 농가용 스마트팜 센서 키트 '팜센서 키트(FarmSensor Kit) v2'를 공개했다. 온습도·토양수분·일사량·CO2 센서 4종과 LTE 통신 모듈이 들어 있다.",
   "가격은 v1의 절반인 19만 원이며, 측정값은 1분마다 들마루 오픈 API로 전송된다. 배터리는 태양광 패널로 충전한다.",
   "기술원은 올해 안에 논산·익산 농가 500곳에 키트를 보급할 계획이다."],
  "2026-03-25 11:00", "https://deulnyeok.example/2026/03/farmsensor-kit-v2", "들녘테크",
  ["agritech", "iot", "release", "deulmaru"])

n("n26-marine-litter-winner",
  "해양 쓰레기 탐지 대회 1위는 '갈매기눈' 팀",
  "2026 해양 쓰레기 AI 탐지 경진대회에서 '갈매기눈' 팀이 1위를 차지했다.",
  ["해솔해양데이터재단과 영도항만이 공동 주최한 2026 해양 쓰레기 AI 탐지 경진대회에서 3인 팀 '갈매기눈'이 mAP@0.5 0.71로 1위를 차지했다.",
   "갈매기눈 팀은 드론 사진을 작은 타일로 잘라 학습하는 방식으로 스티로폼 부표 같은 작은 쓰레기 탐지 성능을 높였다. 2위는 '파도청소부'(0.69)였다.",
   "영도항만은 1위 모델을 올여름 해변 정화 작업 경로 계획에 시범 적용한다."],
  "2026-04-08 10:00", "https://badaeconomy.example/2026/04/marine-litter-ai-winner", "바다경제",
  ["ocean", "ai", "results", "haesol"])

n("n26-saessak-q-2026",
  "새싹 주니어 코딩대회 예선에 5천 명 몰려…블록코딩 첫 도입",
  "블록코딩 부문이 처음 생긴 2026 새싹 주니어 코딩대회 예선에 5,100명이 참가했다.",
  ["새싹코딩재단이 4월 11일 연 2026 새싹 주니어 코딩대회 예선에 5,100명이 참가했다. 처음 도입된 초등 3~4학년 블록코딩 부문에만 900명이 몰렸다.",
   "본선 진출 기준 점수는 초등부 320점, 중등부 450점, 고등부 500점(600점 만점)이다.",
   "본선은 5월 23일 광주 새싹코딩센터에서 열린다."],
  "2026-04-22 15:00", "https://codemulgyeol.example/news/2026/04/saessak-junior-2026-qualifier", "코드물결",
  ["education", "coding", "results", "saessak"])

n("n26-rail-hackday",
  "Open Rail Hack Day 2026 recap: wheelchair route planner wins",
  "Team RampRoute won Dosi Rail's Open Rail Hack Day with a step-free route planner.",
  ["Dosi Rail Corporation's Open Rail Hack Day brought 100 developers to its Guro headquarters on April 25. The winning team, RampRoute, built a step-free route planner that combines the Cheolgil real-time arrival API with elevator locations.",
   "Second place went to CrowdBell, which warns commuters when the next train is predicted to be packed. Prizes totalled KRW 2 million.",
   "Dosi Rail said RampRoute's idea convinced it to publish a live elevator outage feed later this year."],
  "2026-04-29 18:00", "https://techparang.example/2026/04/open-rail-hack-day-recap", "TechParang",
  ["transit", "hackathon", "results", "cheolgil"])

n("n26-garam-stem-paper",
  "Garam Sound Lab paper: stem separation model runs on a phone",
  "Garam Sound Lab researchers showed a music source separation model small enough to run in real time on phones.",
  ["Researchers at Garam Sound Lab have published a paper on a compact music source separation model that splits a song into vocals, drums, bass and other stems in real time on a mid-range phone.",
   "The model has 8 million parameters, a fifth of the size of common research models, and loses about 0.6 dB SDR in quality compared with them.",
   "The lab said the model will become the stem separation feature of the next major Sorigyeol SDK release."],
  "2026-05-06 13:00", "https://devweekly.example/2026/05/garam-stem-separation-paper", "DevWeekly Korea",
  ["music", "research", "ai", "garam"])

n("n26-durepay-contest-winners",
  "두레페이 개발자 컨테스트 수상작 발표…대상 '영수증모아'",
  "두레페이 오픈API 개발자 컨테스트에서 전자영수증 통합 앱 '영수증모아'가 대상을 받았다.",
  ["두레페이가 오픈API 개발자 컨테스트 수상작을 발표했다. 대상은 여러 가게의 전자영수증을 한곳에 모아 가계부로 바꿔 주는 '영수증모아'가 받았다.",
   "영수증모아는 개인 개발자 한서윤 씨가 혼자 만든 앱으로, 상금 500만 원과 두레페이 앱 마켓 입점 기회를 얻었다. 우수상은 '정산알리미'와 '동네장부'다.",
   "두레페이는 11월 아이디어톤에서도 오픈 API v4 샌드박스를 제공한다."],
  "2026-05-20 11:00", "https://fintechnaru.example/2026/05/durepay-dev-contest-winners", "핀테크나루",
  ["fintech", "results", "durepay"])

n("n26-saessak-f-2026",
  "2026 새싹 주니어 코딩대회 본선 대상에 초등 6학년 박서윤",
  "광주에서 열린 2026 새싹 주니어 코딩대회 본선에서 초등 6학년 박서윤 학생이 전체 대상을 받았다.",
  ["5월 23일 광주 새싹코딩센터에서 열린 2026 새싹 주니어 코딩대회 본선에서 누리초 6학년 박서윤 학생이 전체 대상을 받았다. 초등학생이 전체 대상을 받은 것은 대회 사상 처음이다.",
   "박 학생은 7문제 중 6문제를 풀었고, 노트북과 장학금 150만 원을 받았다. 중등부 1위는 가온중 3학년 이준서, 고등부 1위는 한빛고 1학년 최다은 학생이다.",
   "지난해 대상 수상자 김하린 학생은 올해 중등부 3위에 올랐다."],
  "2026-05-27 10:00", "https://codemulgyeol.example/news/2026/05/saessak-junior-2026-finals", "코드물결",
  ["education", "coding", "results", "saessak"])

n("n26-haesol-q-2026",
  "Haesol Ocean Hackathon 2026 qualifier draws 180 teams",
  "180 teams entered the online qualifier of the 2026 Haesol Ocean Hackathon, and 24 advanced to the finals.",
  ["The online qualifier of the Haesol Ocean Hackathon 2026 closed on May 23 with 180 teams, up from 132 last year. Entries had to use Mulmaru API 2.0 buoy and tide data.",
   "Twenty-four teams advanced to the July finals in Yeongdo. Nine of them chose the new marine-litter track sponsored by Yeongdo Harbor Co.",
   "The most common idea was a tide-aware fishing or tidal-flat safety app, which judges said made originality hard to score."],
  "2026-06-02 10:00", "https://badaeconomy.example/2026/06/haesol-qualifier-2026", "Bada Economy",
  ["ocean", "hackathon", "results", "haesol"])

n("n26-livecoding-winner",
  "소리마루 라이브코딩 페스티벌, 관객 투표로 '루프고래' 우승",
  "서울 성수 소리마루홀에서 열린 라이브코딩 페스티벌에서 '루프고래'가 우승했다.",
  ["6월 13일 서울 성수 소리마루홀에서 열린 소리마루 라이브코딩 페스티벌에서 2인조 '루프고래'가 우승했다. 루프고래는 15분 동안 파도 소리 샘플을 코드로 겹겹이 쌓는 공연을 펼쳤다.",
   "관객 투표 40%와 심사위원 점수 60%를 합산한 결과다. 2위는 국악 장단을 알고리즘으로 변주한 솔로 아티스트 '단소봇'이다.",
   "가람사운드랩은 내년부터 이 행사를 봄과 가을 두 차례 열 계획이다."],
  "2026-06-17 11:00", "https://codemulgyeol.example/news/2026/06/sorimaru-livecoding-winner", "코드물결",
  ["music", "livecoding", "results", "garam"])

n("n26-gwedochang-50cm",
  "궤도창 Gwedochang, 50cm 고해상도 영상 추가",
  "Byeolbat Space Institute's Gwedochang platform now offers 50 cm resolution images of major Korean cities and coasts.",
  ["Gwedochang (궤도창), the satellite imagery platform of Byeolbat Space Institute, now offers 50 cm resolution imagery, up from 3 m. Coverage starts with seven metropolitan areas and the southern coastline.",
   "High-resolution images cost KRW 30,000 per square kilometre, while the free tier of 200 multispectral images a month stays unchanged.",
   "The institute also added a change-detection API that flags new buildings and cleared forest between two dates."],
  "2026-06-24 10:00", "https://byeolbitnews.example/2026/06/gwedochang-50cm", "Byeolbit Science News",
  ["space", "platform", "release", "gwedochang"])

n("n26-cubesat-2026-winners",
  "제4회 별밭 큐브샛 설계 경진대회 결과…학생 부문 대상 '새벽궤도'",
  "제4회 별밭 큐브샛 설계 경진대회 학생 부문은 누리대 '새벽궤도', 일반 부문은 스타트업 오르빗트리가 대상을 받았다.",
  ["별밭우주연구소가 7월 10일 대전 대강당에서 최종 발표를 열고 제4회 별밭 큐브샛 설계 경진대회 수상팀을 발표했다. 학생 부문 대상은 2U 큐브샛으로 산불 연기를 관측하는 임무를 낸 누리대학교 6인 팀 '새벽궤도'다.",
   "일반 부문 대상 2,500만 원은 부산 스타트업 오르빗트리(Orbitree)가 받았다. 오르빗트리는 3U 큐브샛으로 연안 해양 쓰레기 띠를 추적하는 임무를 설계했다.",
   "새벽궤도 팀은 상금 1,000만 원을 받았으며, 연구소는 이 임무를 궤도창 산불 감시 서비스와 연계하는 방안을 검토하고 있다."],
  "2026-07-13 10:00", "https://byeolbitnews.example/2026/07/cubesat-cup-2026-winners", "별빛과학신문",
  ["space", "cubesat", "results", "byeolbat"])

n("n26-haesol-2026-winner",
  "Haesol Ocean Hackathon 2026: team TideSense takes the grand prize",
  "TideSense won the 2026 Haesol Ocean Hackathon finals in Yeongdo with a rip-current warning service.",
  ["Team TideSense won the grand prize of KRW 20 million at the Haesol Ocean Hackathon 2026 finals, held at Haesol Center in Yeongdo, Busan, on July 11-12. Its service warns beach lifeguards about likely rip currents using Mulmaru API wave and tide readings.",
   "The two runner-up prizes of KRW 7 million each went to LitterLens, which also won the new marine-litter track, and Kelpie, a kelp-farm monitoring dashboard.",
   "TideSense is a team of four graduate students from Gaon University and Nuri University."],
  "2026-07-14 09:00", "https://badaeconomy.example/2026/07/haesol-hackathon-2026-winner", "Bada Economy",
  ["ocean", "hackathon", "results", "haesol"])

n("n26-mulmaru-typhoon",
  "물마루 서비스, 태풍 기간 5시간 장애…부이 데이터 지연",
  "태풍 '미리내'가 남해안을 지나던 날 물마루 API가 5시간 동안 응답 지연과 오류를 겪었다.",
  ["태풍 '미리내'가 남해안을 지나던 7월 27일 물마루 API가 오후 1시부터 6시까지 약 5시간 동안 장애를 겪었다. 요청이 평소의 30배로 몰리면서 응답 시간이 20초를 넘었고 일부 요청은 타임아웃됐다.",
   "부이 관측값 자체는 손실되지 않았지만, 수온 예측 엔드포인트는 장애 시간 동안 갱신되지 않았다.",
   "해솔해양데이터재단은 재난 상황에서 요청 한도를 자동으로 조정하는 기능과 캐시 서버 증설을 약속했다."],
  "2026-07-28 10:00", "https://badaeconomy.example/2026/07/mulmaru-typhoon-outage", "바다경제",
  ["ocean", "api", "outage", "mulmaru"])

n("n26-ctf-quals-2026",
  "은결 CTF 2026 예선, 하드웨어 문제 첫 출제…본선 20팀 확정",
  "은결 CTF 2026 예선에 405팀이 참가했고, 처음 출제된 하드웨어·펌웨어 문제는 11팀만 풀었다.",
  ["은결보안이 8월 15~16일 진행한 은결 CTF 2026 예선에 405팀이 참가했다. 지난해(312팀)보다 30% 늘었다.",
   "올해 처음 출제된 하드웨어·펌웨어 분야에서는 가장 쉬운 문제도 11팀만 풀었다. 예선 1위는 'NullMari', 대학팀 1위는 누리대 'ROOTLESS'다.",
   "상위 20팀은 10월 24~25일 서울 마곡 은결홀에서 열리는 본선에 진출한다."],
  "2026-08-19 14:00", "https://codemulgyeol.example/news/2026/08/eungyeol-ctf-2026-quals", "코드물결",
  ["ctf", "security", "results", "eungyeol"])

n("n26-bluecarbon-winner",
  "Blue Carbon Data Sprint winners estimate 1.2 Mt of seagrass carbon",
  "Team Seagrass Counters won the Blue Carbon Data Sprint with a seagrass carbon estimate for the south coast.",
  ["The Haesol Marine Data Foundation has announced the results of its Blue Carbon Data Sprint. Team Seagrass Counters took first place by estimating that seagrass meadows on Korea's south coast store about 1.2 million tonnes of carbon.",
   "The team combined Mulmaru API water-temperature data with Gwedochang satellite imagery to map meadow area, and validated it against 40 diver surveys.",
   "The top three teams shared KRW 9 million, and the foundation will publish the winning notebook as an open tutorial."],
  "2026-08-20 10:00", "https://badaeconomy.example/2026/08/blue-carbon-sprint-winners", "Bada Economy",
  ["ocean", "climate", "results", "haesol"])

n("n26-haesol-ripcurrent",
  "해솔재단 연구진, 부이 데이터로 이안류 30분 전 예측",
  "해솔해양데이터재단 연구진이 연안 부이 데이터만으로 이안류를 30분 앞서 예측하는 모델을 발표했다.",
  ["해솔해양데이터재단 연구진이 물마루 API로 수집한 파고·주기·조위 데이터를 이용해 해수욕장 이안류 발생을 30분 앞서 예측하는 모델을 발표했다.",
   "부산 해수욕장 세 곳에서 두 달 동안 시험한 결과 적중률은 84%였다. 연구진은 해커톤 우승팀 TideSense의 아이디어를 발전시킨 것이라고 설명했다.",
   "재단은 이 모델을 내년 물마루 API 3.0에 예측 기능으로 넣을 계획이다."],
  "2026-08-26 11:00", "https://badaeconomy.example/2026/08/haesol-rip-current-model", "바다경제",
  ["ocean", "research", "haesol"])

n("n26-cheolgil-2026-winner",
  "Cheolgil Open Data Contest 2026 grand prize goes to ElevatorNow",
  "ElevatorNow, an app that reroutes wheelchair users around broken elevators, won the 2026 Cheolgil Open Data Contest.",
  ["Dosi Rail Corporation has announced the results of the Cheolgil Open Data Contest 2026. The KRW 7 million grand prize went to ElevatorNow, an app that uses the new elevator outage feed to reroute wheelchair users in real time.",
   "ElevatorNow was built by a team of three, including a wheelchair user who tested every route. Fifteen entries received awards in total.",
   "Dosi Rail plans to publish station cold-weather shelter data for next winter's contest."],
  "2026-09-08 10:00", "https://techparang.example/2026/09/cheolgil-opendata-2026-winner", "TechParang",
  ["opendata", "transit", "results", "cheolgil"])

n("n26-pado-seriesB",
  "파도게임즈, 50억 원 투자 유치…게임 음악 도구 자체 개발",
  "파도게임즈가 50억 원 규모의 시리즈 B 투자를 받아 게임 음악 제작 도구를 개발한다.",
  ["부산 인디 게임사 파도게임즈가 50억 원 규모의 시리즈 B 투자를 유치했다. 작년 시리즈 A 30억 원에 이은 두 번째 투자다.",
   "파도게임즈는 '물결소리'의 적응형 음악 시스템을 다른 개발사도 쓸 수 있는 도구로 만들 계획이며, 이 도구는 소리결 SDK 위에서 동작한다.",
   "회사는 내년 초 게임 오디오를 주제로 한 온라인 잼을 연다고 밝혔다."],
  "2026-09-10 11:00", "https://gamenote.example/2026/09/pado-games-series-b", "게임노트",
  ["game", "funding", "padogames"])

n("n26-furrow-winner",
  "Furrow Robotics Challenge 2026: 자율 제초 로봇 '호미봇' 우승",
  "들마루농업기술원 논산 시험포에서 열린 Furrow Robotics Challenge 2026에서 '호미봇' 팀이 우승했다.",
  ["들마루농업기술원 논산 시험포에서 9월 19~20일 열린 Furrow Robotics Challenge 2026에서 논산 들녘농업고등학교 학생과 교사로 구성된 '호미봇' 팀이 우승했다.",
   "호미봇은 20m 딸기 이랑의 잡초를 11분 만에 제거했고, 딸기 포기를 한 번도 건드리지 않았다. 우승 상금은 1,500만 원이다.",
   "2위는 로봇 스타트업 밭갈이랩의 '잡초먹개비'였다."],
  "2026-09-24 16:00", "https://deulnyeok.example/2026/09/furrow-robotics-2026-winner", "들녘테크",
  ["agritech", "robotics", "results", "deulmaru"])

n("n26-pasukkun-20",
  "Pasukkun 2.0 adds Rust and Go analyzers",
  "Eungyeol Security's open-source scanner Pasukkun 2.0 now analyses Rust and Go code and runs twice as fast.",
  ["Eungyeol Security has released Pasukkun 2.0. The open-source scanner now supports Rust and Go in addition to Java, Python and JavaScript, and ships with 1,150 detection rules.",
   "A new incremental mode only rescans changed files, which makes CI runs about twice as fast on large repositories. The rule language gained taint-tracking annotations.",
   "Version 1.x will receive security fixes until June 2027."],
  "2026-10-05 10:00", "https://devweekly.example/2026/10/pasukkun-2-0", "DevWeekly Korea",
  ["security", "opensource", "release", "pasukkun"])

n("n26-elevator-policy",
  "Open data rule now requires transit agencies to publish elevator outage feeds",
  "A new National Open Data Commission rule obliges transit operators to publish elevator and escalator outages in real time.",
  ["The National Open Data Commission (국가데이터개방위원회) has amended its guidelines so that subway and rail operators must publish elevator and escalator outages as a real-time open API from January 2027.",
   "Dosi Rail Corporation, which already runs such a feed, is the model cited by the commission. Operators that miss the deadline will be marked down in the yearly data quality ratings.",
   "Disability groups welcomed the rule but asked for outage causes and expected repair times to be included."],
  "2026-10-14 14:00", "https://techparang.example/2026/10/elevator-outage-open-data-rule", "TechParang",
  ["policy", "opendata", "transit", "government"])

n("n26-ctf-finals-2026",
  "NullMari wins Eungyeol CTF again; Nuri University's ROOTLESS is best student team",
  "NullMari won the Eungyeol CTF 2026 finals for the second year in a row, and ROOTLESS took the best-student-team prize.",
  ["Team NullMari has won Eungyeol CTF for the second year running, taking KRW 20 million at the two-day Attack & Defense finals at Eungyeol Hall in Magok, Seoul, on October 24-25.",
   "Second place went to 0xGull and third to Haetbit Sec. ROOTLESS from Nuri University finished fifth overall and received the KRW 5 million best-student-team prize.",
   "Eungyeol Security said the 2027 finals will switch to a King-of-the-Hill format."],
  "2026-10-28 10:00", "https://devweekly.example/2026/10/eungyeol-ctf-2026-finals", "DevWeekly Korea",
  ["ctf", "security", "results", "eungyeol"])

n("n26-nodc-youth",
  "국가데이터개방위원회, 청년 데이터 챌린지 개최…11월 2일 접수 시작",
  "국가데이터개방위원회가 만 19~34세 청년을 위한 장기 데이터 분석 챌린지를 연다.",
  ["국가데이터개방위원회가 11월 2일부터 내년 3월 31일까지 청년 데이터 챌린지를 진행한다. 교통·해양·농업 공공데이터 중 하나를 골라 분석 보고서를 내는 방식이다.",
   "위원회는 참가자에게 도시철길공사, 해솔해양데이터재단, 들마루농업기술원의 API 키를 우선 발급한다.",
   "위원회 관계자는 '보고서 형식 공모전이라 코딩 경험이 적은 청년도 도전할 수 있다'고 말했다."],
  "2026-10-30 10:00", "https://techparang.example/2026/10/nodc-youth-data-challenge", "테크파랑",
  ["policy", "opendata", "youth", "government"])

n("n26-musictech-2026-winners",
  "가람 뮤직테크 챌린지 2026 수상작…학생 부문 '숨결피아노', 일반 부문 '무대조명봇'",
  "2026 가람 뮤직테크 챌린지 학생 부문은 '숨결피아노', 일반 부문은 '무대조명봇'이 1위를 차지했다.",
  ["11월 21일 서울 성수 소리마루홀에서 열린 2026 가람 뮤직테크 챌린지 결선에서 학생 부문 1등은 가온대 3인 팀의 '숨결피아노'가 차지했다. 관악기 연주자의 호흡을 소리결 SDK 4.2 음정 추적으로 분석해 연습을 돕는 앱이다.",
   "일반 부문 대상 1,200만 원은 인디 스튜디오 모라(Studio Mora)의 '무대조명봇'에 돌아갔다. 공연 음악의 박자와 분위기에 맞춰 조명을 자동으로 바꾸는 도구다.",
   "가람사운드랩은 2027년 대회 일정을 앞당겨 1월에 접수를 시작한다고 밝혔다."],
  "2026-11-24 10:00", "https://codemulgyeol.example/news/2026/11/garam-musictech-2026-winners", "코드물결",
  ["music", "results", "garam"])

n("n26-dure-ideathon-2026",
  "2026 두레 핀테크 아이디어톤 대상에 '큰글씨페이'",
  "고령층을 위한 쉬운 결제를 주제로 한 2026 두레 핀테크 아이디어톤에서 '큰글씨페이'가 대상을 받았다.",
  ["두레페이가 11월 21~22일 여의도 두레타워에서 연 2026 핀테크 아이디어톤에서 '큰글씨페이' 팀이 대상 800만 원을 받았다. 글씨 크기와 버튼 수를 최소화하고, 음성으로 결제 금액을 다시 읽어 주는 결제 화면이다.",
   "최우수상은 손주가 원격으로 결제 한도를 설정해 주는 '안심지갑'이 받았다. 참가팀은 모두 두레페이 오픈 API v4 샌드박스로 시연했다.",
   "두레페이는 2027년 아이디어톤을 처음으로 봄에 부산에서 연다고 예고했다."],
  "2026-11-25 11:00", "https://fintechnaru.example/2026/11/dure-ideathon-2026", "핀테크나루",
  ["fintech", "ideathon", "results", "durepay"])
