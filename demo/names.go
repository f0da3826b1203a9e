package demo

import "strings"

// name is a first or last name with its ASCII-folded forms: email is
// lowercase letters and digits only ("obrien"), slug keeps word breaks
// as hyphens ("van-den-berg").
type name struct {
	display, email, slug string
}

func buildNames(list []string) []name {
	seen := make(map[string]bool, len(list))
	out := make([]name, 0, len(list))
	for _, s := range list {
		if seen[s] {
			continue
		}
		seen[s] = true
		out = append(out, name{display: s, email: foldEmail(s), slug: foldSlug(s)})
	}
	return out
}

var (
	firstNames = buildNames(firstNameList)
	lastNames  = buildNames(lastNameList)
)

// fold maps the accented letters of the name tables to ASCII.
var fold = map[rune]string{
	'á': "a", 'à': "a", 'â': "a", 'ä': "a", 'ã': "a", 'å': "a", 'ą': "a", 'æ': "ae",
	'ç': "c", 'ć': "c", 'č': "c", 'đ': "d",
	'é': "e", 'è': "e", 'ê': "e", 'ë': "e", 'ę': "e", 'ğ': "g",
	'í': "i", 'ì': "i", 'î': "i", 'ï': "i", 'ı': "i", 'ł': "l",
	'ñ': "n", 'ń': "n",
	'ó': "o", 'ò': "o", 'ô': "o", 'ö': "o", 'õ': "o", 'ø': "o",
	'ś': "s", 'š': "s", 'ş': "s", 'ß': "ss",
	'ú': "u", 'ù': "u", 'û': "u", 'ü': "u",
	'ý': "y", 'ź': "z", 'ż': "z", 'ž': "z",
}

// asciiFold lowercases s and folds accents; other characters are kept.
func asciiFold(s string) string {
	ascii := true
	for i := 0; i < len(s) && ascii; i++ {
		ascii = s[i] < 0x80
	}
	if ascii {
		return strings.ToLower(s)
	}
	var b strings.Builder
	for _, c := range strings.ToLower(s) {
		if f, ok := fold[c]; ok {
			b.WriteString(f)
		} else {
			b.WriteRune(c)
		}
	}
	return b.String()
}

func foldEmail(s string) string {
	var b strings.Builder
	for _, c := range asciiFold(s) {
		if c >= 'a' && c <= 'z' || c >= '0' && c <= '9' {
			b.WriteRune(c)
		}
	}
	return b.String()
}

// foldSlug is asciiFold with every run of other characters made one
// hyphen, trimmed at both ends.
func foldSlug(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	dash := false
	for _, c := range asciiFold(s) {
		if c >= 'a' && c <= 'z' || c >= '0' && c <= '9' {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(c)
		} else {
			dash = true
		}
	}
	return b.String()
}

var firstNameList = []string{
	// English
	"James", "Olivia", "Liam", "Emma", "Noah", "Ava", "Ethan", "Sophia", "Mason", "Isabella",
	"Lucas", "Mia", "Logan", "Charlotte", "Benjamin", "Amelia", "Jacob", "Harper", "Michael", "Evelyn",
	"Daniel", "Abigail", "Henry", "Emily", "Jackson", "Elizabeth", "Sebastian", "Avery", "Matthew", "Ella",
	"Samuel", "Scarlett", "David", "Grace", "Joseph", "Chloe", "Carter", "Victoria", "Owen", "Riley",
	"Wyatt", "Aria", "John", "Lily", "Jack", "Zoey", "Luke", "Penelope", "Dylan", "Lillian",
	"Grayson", "Addison", "Isaac", "Natalie", "Gabriel", "Hannah", "Julian", "Brooklyn", "Anthony", "Zoe",
	"Lincoln", "Leah", "Joshua", "Savannah", "Christopher", "Audrey", "Andrew", "Claire", "Theodore", "Eleanor",
	"Caleb", "Skylar", "Ryan", "Ellie", "Nathan", "Stella", "Thomas", "Violet", "Charles", "Allison",
	"Hudson", "Hazel", "Connor", "Lucy", "Aaron", "Sarah", "Jonathan", "Madison", "Nolan", "Rebecca",
	"Marcus", "Jasmine", "Tyler", "Morgan", "Jordan", "Taylor", "Kevin", "Rachel", "Brian", "Megan",
	// Spanish and Portuguese
	"José", "María", "Alejandro", "Lucía", "Javier", "Valentina", "Diego", "Camila", "Carlos", "Daniela",
	"Santiago", "Gabriela", "Mateo", "Ximena", "Andrés", "Paula", "Rafael", "Carmen", "Luis", "Isabel",
	"Fernando", "Elena", "Pablo", "Marta", "Sergio", "Beatriz", "João", "Ana", "Pedro", "Thiago",
	"Larissa", "Rodrigo", "Fernanda", "Bruno", "Juliana", "Gustavo", "Letícia", "Mariana",
	// French
	"Antoine", "Camille", "Louis", "Chloé", "Hugo", "Léa", "Julien", "Manon", "Mathieu", "Élodie",
	"Nicolas", "Amélie", "Théo", "Inès", "Baptiste", "Margaux", "Clément", "Océane",
	// German, Dutch and Nordic
	"Lukas", "Anna", "Felix", "Lena", "Jonas", "Maximilian", "Sophie", "Tobias", "Katharina", "Florian",
	"Julia", "Jan", "Miriam", "Moritz", "Jana", "Stefan", "Franziska", "Jürgen", "Sander", "Femke",
	"Daan", "Sanne", "Lars", "Ingrid", "Erik", "Astrid", "Magnus", "Freja", "Björn", "Sigrid",
	"Mikael", "Elin", "Søren", "Maja", "Anders", "Linnea",
	// Polish, Ukrainian and Balkan
	"Jakub", "Zuzanna", "Piotr", "Agnieszka", "Tomasz", "Katarzyna", "Michał", "Magdalena", "Łukasz", "Aleksandra",
	"Paweł", "Natalia", "Dmytro", "Olena", "Andriy", "Milena", "Nikola", "Ivana",
	// Italian
	"Marco", "Giulia", "Luca", "Francesca", "Alessandro", "Chiara", "Matteo", "Martina", "Lorenzo", "Federica",
	// Indian
	"Aarav", "Priya", "Rohan", "Ananya", "Vikram", "Aditi", "Arjun", "Kavya", "Rahul", "Sneha",
	"Karthik", "Divya", "Siddharth", "Neha", "Aditya", "Pooja", "Nikhil", "Shreya", "Varun", "Meera",
	"Ravi", "Lakshmi", "Sanjay", "Deepika", "Anil", "Swati",
	// Chinese, Japanese and Korean
	"Wei", "Mei", "Jun", "Xin", "Hao", "Ling", "Yang", "Yan", "Jing", "Lei",
	"Hui", "Tao", "Fang", "Ming", "Xiu", "Haruto", "Yui", "Sota", "Aoi", "Ren",
	"Hina", "Kenji", "Yuki", "Takumi", "Sakura", "Daiki", "Misaki", "Hiroshi", "Naoko", "Min-jun",
	"Seo-yeon", "Ji-ho", "Ha-eun", "Jae-won", "Soo-ah", "Hyun-woo", "Ji-woo",
	// Southeast Asian
	"Minh", "Linh", "Duc", "Thao", "Quang", "Huong", "Putri", "Budi", "Rizky", "Ayu",
	"Dewi", "Agus", "Siti", "Andi", "Paolo", "Maricel",
	// Arabic, Persian, Hebrew and Turkish
	"Omar", "Layla", "Ahmed", "Fatima", "Yusuf", "Amira", "Karim", "Nour", "Hassan", "Salma",
	"Tariq", "Yasmin", "Khalid", "Rania", "Ali", "Leila", "Dariush", "Shirin", "Noam", "Tamar",
	"Eitan", "Noa", "Yonatan", "Shira", "Avi", "Maya", "Emre", "Elif", "Mehmet", "Zeynep",
	"Burak", "Ayşe",
	// African
	"Chinedu", "Amara", "Kwame", "Abena", "Oluwaseun", "Ngozi", "Tendai", "Zanele", "Kofi", "Adaeze",
	"Thabo", "Nia", "Emeka", "Ifeoma", "Jabari", "Imani", "Sipho", "Ayodele", "Fatou", "Moussa",
	// Irish
	"Siobhán", "Cian", "Aoife", "Oisín", "Niamh", "Darragh", "Saoirse", "Ciarán",
}

var lastNameList = []string{
	// English, Scottish and Irish
	"Smith", "Johnson", "Williams", "Brown", "Jones", "Miller", "Davis", "Wilson", "Anderson", "Taylor",
	"Thomas", "Moore", "Martin", "Jackson", "Thompson", "White", "Harris", "Clark", "Lewis", "Robinson",
	"Walker", "Young", "Allen", "King", "Wright", "Scott", "Green", "Baker", "Adams", "Nelson",
	"Hill", "Campbell", "Mitchell", "Roberts", "Carter", "Phillips", "Evans", "Turner", "Parker", "Collins",
	"Edwards", "Stewart", "Morris", "Murphy", "Cook", "Rogers", "Morgan", "Cooper", "Peterson", "Reed",
	"Bailey", "Bell", "Kelly", "Howard", "Ward", "Cox", "Richardson", "Wood", "Watson", "Brooks",
	"Bennett", "Gray", "Hughes", "Price", "Sanders", "Myers", "Long", "Ross", "Foster", "Powell",
	"Jenkins", "Perry", "Russell", "Sullivan", "Fisher", "Hayes", "Graham", "Wallace", "Hamilton", "Ellis",
	"Fletcher", "Holmes", "Lawson", "Chapman", "Marshall", "Palmer", "Shaw", "Barker", "Webb", "Spencer",
	"O'Brien", "O'Connor", "Byrne", "Ryan", "Doyle", "McCarthy", "Gallagher", "Kavanagh", "Quinn", "Walsh",
	"Brennan", "Fitzgerald", "MacLeod", "Fraser",
	// Spanish and Portuguese
	"García", "Rodríguez", "Martínez", "Hernández", "López", "González", "Pérez", "Sánchez", "Ramírez", "Torres",
	"Flores", "Rivera", "Gómez", "Díaz", "Morales", "Ortiz", "Gutiérrez", "Castillo", "Jiménez", "Ruiz",
	"Vargas", "Castro", "Romero", "Navarro", "Medina", "Herrera", "Vega", "Mendoza", "Aguilar", "Silva",
	"Oliveira", "Santos", "Costa", "Pereira", "Almeida", "Ferreira", "Carvalho", "Ribeiro", "Souza", "Lima",
	"Araújo", "Barbosa", "García-López",
	// French
	"Dubois", "Moreau", "Laurent", "Lefebvre", "Girard", "Bonnet", "Dupont", "Lambert", "Fontaine", "Rousseau",
	"Mercier", "Chevalier", "Garnier", "Faure", "Blanc", "Leroy",
	// German and Dutch
	"Müller", "Schmidt", "Schneider", "Fischer", "Weber", "Meyer", "Wagner", "Becker", "Schulz", "Hoffmann",
	"Koch", "Richter", "Klein", "Wolf", "Schröder", "Neumann", "Zimmermann", "Braun", "Krüger", "Hartmann",
	"Lange", "Werner", "Krause", "Vogel", "de Vries", "van Dijk", "Bakker", "Janssen", "Visser", "Smit",
	"de Boer", "Mulder", "van den Berg", "Dekker", "Vermeulen", "Brouwer",
	// Nordic and Finnish
	"Johansson", "Andersson", "Karlsson", "Nilsson", "Eriksson", "Larsson", "Lindqvist", "Berg", "Hansen", "Nielsen",
	"Jensen", "Pedersen", "Virtanen", "Korhonen", "Lindgren", "Holm",
	// Central and Eastern European
	"Nowak", "Kowalczyk", "Wójcik", "Kamiński", "Lewandowski", "Zieliński", "Szymański", "Dąbrowski", "Kozłowski", "Mazur",
	"Novak", "Horvat", "Kovačević", "Shevchenko", "Bondarenko", "Popescu", "Ionescu", "Petrov",
	// Italian
	"Rossi", "Russo", "Ferrari", "Esposito", "Bianchi", "Romano", "Colombo", "Ricci", "Marino", "Greco",
	"Bruno", "Gallo", "Conti", "De Luca", "Moretti",
	// Indian
	"Sharma", "Patel", "Singh", "Kumar", "Gupta", "Reddy", "Iyer", "Nair", "Rao", "Mehta",
	"Joshi", "Desai", "Kapoor", "Malhotra", "Chatterjee", "Banerjee", "Menon", "Pillai", "Agarwal", "Verma",
	"Bhat", "Krishnan", "Shah", "Chopra",
	// Chinese, Japanese and Korean
	"Wang", "Li", "Zhang", "Liu", "Chen", "Yang", "Huang", "Zhao", "Wu", "Zhou",
	"Xu", "Sun", "Ma", "Zhu", "Hu", "Guo", "Lin", "He", "Gao", "Luo",
	"Tan", "Lim", "Ng", "Wong", "Chan", "Lee", "Goh", "Sato", "Suzuki", "Takahashi",
	"Tanaka", "Watanabe", "Ito", "Yamamoto", "Nakamura", "Kobayashi", "Kato", "Yoshida", "Yamada", "Sasaki",
	"Matsumoto", "Inoue", "Kimura", "Kim", "Park", "Choi", "Jung", "Kang", "Cho", "Yoon",
	"Jang", "Han", "Shin", "Seo",
	// Southeast Asian
	"Nguyen", "Tran", "Pham", "Le", "Hoang", "Vu", "Dang", "Bui", "Santoso", "Wijaya",
	"Susanto", "Hidayat", "Pratama", "Saputra", "Gunawan", "Reyes", "Cruz", "Bautista", "dela Cruz",
	// Arabic, Persian, Hebrew and Turkish
	"Haddad", "Khalil", "Mansour", "Nasser", "Saleh", "Rahman", "Hussein", "Farouk", "Aziz", "Hamdan",
	"Qureshi", "Karimi", "Hosseini", "Ahmadi", "Rahimi", "Cohen", "Levi", "Mizrahi", "Peretz", "Biton",
	"Friedman", "Katz", "Shapiro", "Goldberg", "Rosen", "Yılmaz", "Kaya", "Demir", "Şahin", "Çelik",
	"Aydın", "Öztürk", "Arslan",
	// African
	"Okafor", "Adeyemi", "Mensah", "Owusu", "Okonkwo", "Nkosi", "Dlamini", "Mwangi", "Otieno", "Kamau",
	"Abubakar", "Balogun", "Eze", "Nwosu", "Boateng", "Asante", "Ndlovu", "Moyo", "Banda", "Diallo",
	"Traoré", "Keita",
}
