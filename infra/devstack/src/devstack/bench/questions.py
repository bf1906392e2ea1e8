"""Distinct catalog questions for the bench: templates x topics x a qualifier, in Korean and
English, so that no measured question repeats and no answer or query-vector cache serves one."""

from __future__ import annotations

import itertools

TOPICS_KO = ["AI 해커톤", "보안 CTF", "클라우드 인프라", "데이터 분석 경진대회", "모바일 앱 챌린지",
             "게임 개발 공모전", "블록체인 아이디어톤", "오픈소스 컨트리뷰션", "로봇 대회", "IoT 공모전",
             "대학생 SW 대회", "스타트업 피칭", "알고리즘 대회", "웹 개발 챌린지", "LLM 뉴스",
             "반도체 뉴스", "쿠버네티스 소식", "개인정보 보호 이슈", "자율주행 기술", "메타버스 서비스"]
TOPICS_EN = ["AI hackathon", "security CTF", "cloud infrastructure", "data science competition",
             "mobile app challenge", "game jam", "blockchain ideathon", "open source sprint",
             "robotics contest", "IoT challenge", "student coding contest", "startup pitch",
             "algorithm contest", "web development challenge", "large language model news",
             "semiconductor news", "Kubernetes release", "privacy regulation", "self-driving cars",
             "quantum computing"]
TEMPLATES_KO = ["{q} {t} 알려줘", "{t} 관련해서 {q} 뭐 있어?", "{q} {t} 추천해 줘", "{t} 중에 {q} 있을까?",
                "{q} 참가할 만한 {t} 찾아줘"]
TEMPLATES_EN = ["tell me about {t} {q}", "any {t} {q}?", "recommend a {t} {q}", "what {t} is there {q}?",
                "find me {t} {q}"]
QUALIFIERS_KO = ["요즘", "이번 달", "다음 달", "대학생용", "초보자용", "상금 큰", "팀으로", "온라인으로",
                 "서울에서", "주말에"]
QUALIFIERS_EN = ["this month", "next month", "for students", "for beginners", "with big prizes",
                 "for teams", "online", "in Seoul", "on weekends", "this year"]


def distinct_questions(count: int) -> list[str]:
    """`count` different questions, alternating Korean and English; numbered once the
    combinations run out (still distinct texts, hence distinct vectors)."""
    korean = [t.format(t=topic, q=q) for t, topic, q in
              itertools.product(TEMPLATES_KO, TOPICS_KO, QUALIFIERS_KO)]
    english = [t.format(t=topic, q=q) for t, topic, q in
               itertools.product(TEMPLATES_EN, TOPICS_EN, QUALIFIERS_EN)]
    mixed = [q for pair in zip(korean, english, strict=True) for q in pair]
    return [mixed[i % len(mixed)] + (f" ({i // len(mixed)})" if i >= len(mixed) else "")
            for i in range(count)]
