//! GS1 Application Identifiers: the format of each AI's value (GS1 General
//! Specifications section 3, "GS1 Application Identifier definitions"), and
//! the primary keys with their key qualifiers (GS1 Digital Link URI Syntax).

/// One AI, or a range of AIs of one format: the first and last code (of
/// the same length), the format of the value, and whether GS1 Digital
/// Link takes it as a data attribute (a key qualifier such as (21) is only
/// a qualifier of its keys).
pub(super) struct Ai {
    pub(super) first: &'static str,
    pub(super) last: &'static str,
    /// The format as GS1 writes it, without the AI: space-separated
    /// components, each `N` (digits), `X` (character set 82), `Y` (set 39)
    /// or `Z` (set 64) with a length (`14`) or a largest length (`..20`),
    /// `[...]` when it may be left out, then its checks after commas:
    /// `csum` (GS1 mod-10 check digit), `yymmd0` (YYMMDD, DD 00 allowed),
    /// `yymmdd`, `yyyymmdd`, `hhmi`, `hh`, `mi`, `ss` (times) and `zero`.
    pub(super) format: &'static str,
    pub(super) data_attribute: bool,
}

const fn ai(code: &'static str, format: &'static str) -> Ai {
    Ai {
        first: code,
        last: code,
        format,
        data_attribute: true,
    }
}

const fn range(first: &'static str, last: &'static str, format: &'static str) -> Ai {
    Ai {
        first,
        last,
        format,
        data_attribute: true,
    }
}

/// An AI that GS1 Digital Link takes only as a key qualifier.
const fn qualifier(code: &'static str, format: &'static str) -> Ai {
    Ai {
        first: code,
        last: code,
        format,
        data_attribute: false,
    }
}

/// Every GS1 Application Identifier, in lexical order, with its format
/// (GS1 General Specifications section 3.2, as GS1's Barcode Syntax
/// Dictionary, gs1/gs1-syntax-dictionary, writes it in machine-readable
/// form). Of the dictionary's content checks only the check digit, the
/// dates and times and the zero of (8003) are here; country and currency
/// codes, IBANs, coupon codes and such are not checked. The few AIs that
/// are neither a key qualifier nor a Digital Link data attribute ((03),
/// (7041), (8014), (8040)-(8043), (8200)) are taken as data attributes.
pub(super) const AIS: &[Ai] = &[
    ai("00", "N18,csum"),                          // SSCC
    ai("01", "N14,csum"),                          // GTIN
    ai("02", "N14,csum"),                          // CONTENT
    ai("03", "N14,csum"),                          // MTO GTIN
    ai("10", "X..20"),                             // BATCH/LOT
    ai("11", "N6,yymmd0"),                         // PROD DATE
    ai("12", "N6,yymmd0"),                         // DUE DATE
    ai("13", "N6,yymmd0"),                         // PACK DATE
    ai("15", "N6,yymmd0"),                         // BEST BEFORE or BEST BY
    ai("16", "N6,yymmd0"),                         // SELL BY
    ai("17", "N6,yymmd0"),                         // USE BY or EXPIRY
    ai("20", "N2"),                                // VARIANT
    qualifier("21", "X..20"),                      // SERIAL
    qualifier("22", "X..20"),                      // CPV
    qualifier("235", "X..28"),                     // TPX
    ai("240", "X..30"),                            // ADDITIONAL ID
    ai("241", "X..30"),                            // CUST. PART No.
    ai("242", "N..6"),                             // MTO VARIANT
    ai("243", "X..20"),                            // PCN
    ai("250", "X..30"),                            // SECONDARY SERIAL
    ai("251", "X..30"),                            // REF. TO SOURCE
    ai("253", "N13,csum [X..17]"),                 // GDTI
    qualifier("254", "X..20"),                     // GLN EXTENSION COMPONENT
    ai("255", "N13,csum [N..12]"),                 // GCN
    ai("30", "N..8"),                              // VAR. COUNT
    range("3100", "3105", "N6"),                   // NET WEIGHT (kg)
    range("3110", "3115", "N6"),                   // LENGTH (m)
    range("3120", "3125", "N6"),                   // WIDTH (m)
    range("3130", "3135", "N6"),                   // HEIGHT (m)
    range("3140", "3145", "N6"),                   // AREA (m²)
    range("3150", "3155", "N6"),                   // NET VOLUME (l)
    range("3160", "3165", "N6"),                   // NET VOLUME (m³)
    range("3200", "3205", "N6"),                   // NET WEIGHT (lb)
    range("3210", "3215", "N6"),                   // LENGTH (in)
    range("3220", "3225", "N6"),                   // LENGTH (ft)
    range("3230", "3235", "N6"),                   // LENGTH (yd)
    range("3240", "3245", "N6"),                   // WIDTH (in)
    range("3250", "3255", "N6"),                   // WIDTH (ft)
    range("3260", "3265", "N6"),                   // WIDTH (yd)
    range("3270", "3275", "N6"),                   // HEIGHT (in)
    range("3280", "3285", "N6"),                   // HEIGHT (ft)
    range("3290", "3295", "N6"),                   // HEIGHT (yd)
    range("3300", "3305", "N6"),                   // GROSS WEIGHT (kg)
    range("3310", "3315", "N6"),                   // LENGTH (m), log
    range("3320", "3325", "N6"),                   // WIDTH (m), log
    range("3330", "3335", "N6"),                   // HEIGHT (m), log
    range("3340", "3345", "N6"),                   // AREA (m²), log
    range("3350", "3355", "N6"),                   // VOLUME (l), log
    range("3360", "3365", "N6"),                   // VOLUME (m³), log
    range("3370", "3375", "N6"),                   // KG PER m²
    range("3400", "3405", "N6"),                   // GROSS WEIGHT (lb)
    range("3410", "3415", "N6"),                   // LENGTH (in), log
    range("3420", "3425", "N6"),                   // LENGTH (ft), log
    range("3430", "3435", "N6"),                   // LENGTH (yd), log
    range("3440", "3445", "N6"),                   // WIDTH (in), log
    range("3450", "3455", "N6"),                   // WIDTH (ft), log
    range("3460", "3465", "N6"),                   // WIDTH (yd), log
    range("3470", "3475", "N6"),                   // HEIGHT (in), log
    range("3480", "3485", "N6"),                   // HEIGHT (ft), log
    range("3490", "3495", "N6"),                   // HEIGHT (yd), log
    range("3500", "3505", "N6"),                   // AREA (in²)
    range("3510", "3515", "N6"),                   // AREA (ft²)
    range("3520", "3525", "N6"),                   // AREA (yd²)
    range("3530", "3535", "N6"),                   // AREA (in²), log
    range("3540", "3545", "N6"),                   // AREA (ft²), log
    range("3550", "3555", "N6"),                   // AREA (yd²), log
    range("3560", "3565", "N6"),                   // NET WEIGHT (tr oz)
    range("3570", "3575", "N6"),                   // NET VOLUME (oz)
    range("3600", "3605", "N6"),                   // NET VOLUME (qt (US))
    range("3610", "3615", "N6"),                   // NET VOLUME (gal.)
    range("3620", "3625", "N6"),                   // VOLUME (qt (US)), log
    range("3630", "3635", "N6"),                   // VOLUME (gal (US)), log
    range("3640", "3645", "N6"),                   // NET VOLUME (in³)
    range("3650", "3655", "N6"),                   // NET VOLUME (ft³)
    range("3660", "3665", "N6"),                   // NET VOLUME (yd³)
    range("3670", "3675", "N6"),                   // VOLUME (in³), log
    range("3680", "3685", "N6"),                   // VOLUME (ft³), log
    range("3690", "3695", "N6"),                   // VOLUME (yd³), log
    ai("37", "N..8"),                              // COUNT
    range("3900", "3909", "N..15"),                // AMOUNT
    range("3910", "3919", "N3 N..15"),             // AMOUNT
    range("3920", "3929", "N..15"),                // PRICE
    range("3930", "3939", "N3 N..15"),             // PRICE
    range("3940", "3943", "N4"),                   // PRCNT OFF
    range("3950", "3955", "N6"),                   // PRICE/UoM
    ai("400", "X..30"),                            // ORDER NUMBER
    ai("401", "X..30"),                            // GINC
    ai("402", "N17,csum"),                         // GSIN
    ai("403", "X..30"),                            // ROUTE
    ai("410", "N13,csum"),                         // SHIP TO LOC
    ai("411", "N13,csum"),                         // BILL TO
    ai("412", "N13,csum"),                         // PURCHASE FROM
    ai("413", "N13,csum"),                         // SHIP FOR LOC
    ai("414", "N13,csum"),                         // LOC No.
    ai("415", "N13,csum"),                         // PAY TO
    ai("416", "N13,csum"),                         // PROD/SERV LOC
    ai("417", "N13,csum"),                         // PARTY
    ai("420", "X..20"),                            // SHIP TO POST
    ai("421", "N3 X..9"),                          // SHIP TO POST
    ai("422", "N3"),                               // ORIGIN
    ai("423", "N3 [N3] [N3] [N3] [N3]"),           // COUNTRY - INITIAL PROCESS
    ai("424", "N3"),                               // COUNTRY - PROCESS
    ai("425", "N3 [N3] [N3] [N3] [N3]"),           // COUNTRY - DISASSEMBLY
    ai("426", "N3"),                               // COUNTRY - FULL PROCESS
    ai("427", "X..3"),                             // ORIGIN SUBDIVISION
    ai("4300", "X..35"),                           // SHIP TO COMP
    ai("4301", "X..35"),                           // SHIP TO NAME
    ai("4302", "X..70"),                           // SHIP TO ADD1
    ai("4303", "X..70"),                           // SHIP TO ADD2
    ai("4304", "X..70"),                           // SHIP TO SUB
    ai("4305", "X..70"),                           // SHIP TO LOC
    ai("4306", "X..70"),                           // SHIP TO REG
    ai("4307", "X2"),                              // SHIP TO COUNTRY
    ai("4308", "X..30"),                           // SHIP TO PHONE
    ai("4309", "N10 N10"),                         // SHIP TO GEO
    ai("4310", "X..35"),                           // RTN TO COMP
    ai("4311", "X..35"),                           // RTN TO NAME
    ai("4312", "X..70"),                           // RTN TO ADD1
    ai("4313", "X..70"),                           // RTN TO ADD2
    ai("4314", "X..70"),                           // RTN TO SUB
    ai("4315", "X..70"),                           // RTN TO LOC
    ai("4316", "X..70"),                           // RTN TO REG
    ai("4317", "X2"),                              // RTN TO COUNTRY
    ai("4318", "X..20"),                           // RTN TO POST
    ai("4319", "X..30"),                           // RTN TO PHONE
    ai("4320", "X..35"),                           // SRV DESCRIPTION
    ai("4321", "N1"),                              // DANGEROUS GOODS
    ai("4322", "N1"),                              // AUTH TO LEAVE
    ai("4323", "N1"),                              // SIG REQUIRED
    ai("4324", "N6,yymmd0 N4,hhmi"),               // NOT BEF DEL DT
    ai("4325", "N6,yymmd0 N4,hhmi"),               // NOT AFT DEL DT
    ai("4326", "N6,yymmdd"),                       // REL DATE
    ai("4330", "N6 [X1]"),                         // MAX TEMP F.
    ai("4331", "N6 [X1]"),                         // MAX TEMP C.
    ai("4332", "N6 [X1]"),                         // MIN TEMP F.
    ai("4333", "N6 [X1]"),                         // MIN TEMP C.
    ai("7001", "N13"),                             // NSN
    ai("7002", "X..30"),                           // MEAT CUT
    ai("7003", "N6,yymmdd N4,hhmi"),               // EXPIRY TIME
    ai("7004", "N..4"),                            // ACTIVE POTENCY
    ai("7005", "X..12"),                           // CATCH AREA
    ai("7006", "N6,yymmdd"),                       // FIRST FREEZE DATE
    ai("7007", "N6,yymmdd [N6],yymmdd"),           // HARVEST DATE
    ai("7008", "X..3"),                            // AQUATIC SPECIES
    ai("7009", "X..10"),                           // FISHING GEAR TYPE
    ai("7010", "X..2"),                            // PROD METHOD
    ai("7011", "N6,yymmdd [N4],hhmi"),             // TEST BY DATE
    ai("7020", "X..20"),                           // REFURB LOT
    ai("7021", "X..20"),                           // FUNC STAT
    ai("7022", "X..20"),                           // REV STAT
    ai("7023", "X..30"),                           // GIAI - ASSEMBLY
    ai("7030", "N3 X..27"),                        // PROCESSOR # 0
    ai("7031", "N3 X..27"),                        // PROCESSOR # 1
    ai("7032", "N3 X..27"),                        // PROCESSOR # 2
    ai("7033", "N3 X..27"),                        // PROCESSOR # 3
    ai("7034", "N3 X..27"),                        // PROCESSOR # 4
    ai("7035", "N3 X..27"),                        // PROCESSOR # 5
    ai("7036", "N3 X..27"),                        // PROCESSOR # 6
    ai("7037", "N3 X..27"),                        // PROCESSOR # 7
    ai("7038", "N3 X..27"),                        // PROCESSOR # 8
    ai("7039", "N3 X..27"),                        // PROCESSOR # 9
    qualifier("7040", "N1 X1 X1 X1"),              // UIC+EXT
    ai("7041", "X..4"),                            // UFRGT UNIT TYPE
    ai("710", "X..20"),                            // NHRN PZN
    ai("711", "X..20"),                            // NHRN CIP
    ai("712", "X..20"),                            // NHRN CN
    ai("713", "X..20"),                            // NHRN DRN
    ai("714", "X..20"),                            // NHRN AIM
    ai("715", "X..20"),                            // NHRN NDC
    ai("716", "X..20"),                            // NHRN AIC
    ai("717", "X..20"),                            // NHRN SRN
    ai("7230", "X2 X..28"),                        // CERT # 1
    ai("7231", "X2 X..28"),                        // CERT # 2
    ai("7232", "X2 X..28"),                        // CERT # 3
    ai("7233", "X2 X..28"),                        // CERT # 4
    ai("7234", "X2 X..28"),                        // CERT # 5
    ai("7235", "X2 X..28"),                        // CERT # 6
    ai("7236", "X2 X..28"),                        // CERT # 7
    ai("7237", "X2 X..28"),                        // CERT # 8
    ai("7238", "X2 X..28"),                        // CERT # 9
    ai("7239", "X2 X..28"),                        // CERT # 10
    ai("7240", "X..20"),                           // PROTOCOL
    ai("7241", "N2"),                              // AIDC MEDIA TYPE
    ai("7242", "X..25"),                           // VCN
    ai("7250", "N8,yyyymmdd"),                     // DOB
    ai("7251", "N8,yyyymmdd N4,hhmi"),             // DOB TIME
    ai("7252", "N1"),                              // BIO SEX
    ai("7253", "X..40"),                           // FAMILY NAME
    ai("7254", "X..40"),                           // GIVEN NAME
    ai("7255", "X..10"),                           // SUFFIX
    ai("7256", "X..90"),                           // FULL NAME
    ai("7257", "X..70"),                           // PERSON ADDR
    ai("7258", "X3"),                              // BIRTH SEQUENCE
    ai("7259", "X..40"),                           // BABY
    ai("8001", "N4 N5 N3 N1 N1"),                  // DIMENSIONS
    ai("8002", "X..20"),                           // CMT No.
    ai("8003", "N1,zero N13,csum [X..16]"),        // GRAI
    ai("8004", "X..30"),                           // GIAI
    ai("8005", "N6"),                              // PRICE PER UNIT
    ai("8006", "N14,csum N4"),                     // ITIP
    ai("8007", "X..34"),                           // IBAN
    ai("8008", "N6,yymmdd N2,hh [N2],mi [N2],ss"), // PROD TIME
    ai("8009", "X..50"),                           // OPTSEN
    ai("8010", "Y..30"),                           // CPID
    qualifier("8011", "N..12"),                    // CPID SERIAL
    ai("8012", "X..20"),                           // VERSION
    ai("8013", "X..25"),                           // GMN
    ai("8014", "X..25"),                           // MUDI
    ai("8017", "N18,csum"),                        // GSRN - PROVIDER
    ai("8018", "N18,csum"),                        // GSRN - RECIPIENT
    qualifier("8019", "N..10"),                    // SRIN
    qualifier("8020", "X..25"),                    // REF No.
    ai("8026", "N14,csum N4"),                     // ITIP CONTENT
    ai("8030", "Z..90"),                           // DIGSIG
    ai("8040", "N15"),                             // IMEI
    ai("8041", "N15"),                             // IMEI2
    ai("8042", "N32"),                             // ESIM
    ai("8043", "N18 [N..2]"),                      // PSIM
    ai("8110", "X..70"),
    ai("8111", "N4"), // POINTS
    ai("8112", "X..70"),
    ai("8200", "X..70"),        // PRODUCT URL
    ai("90", "X..30"),          // INTERNAL
    range("91", "99", "X..90"), // INTERNAL
];

/// The GS1 primary identification keys of GS1 Digital Link, each with its
/// key qualifiers: alternative sequences, each in the order prescribed
/// (GS1 Digital Link URI Syntax; the `dlpkey` entries of GS1's Barcode
/// Syntax Dictionary). (01) takes (22), (10), (21) in that order, any of
/// them left out, or (235) alone.
pub(super) const PRIMARY_KEYS: &[(&str, &[&[&str]])] = &[
    ("00", &[]),
    ("01", &[&["22", "10", "21"], &["235"]]),
    ("253", &[]),
    ("255", &[]),
    ("401", &[]),
    ("402", &[]),
    ("414", &[&["254"], &["7040"]]),
    ("415", &[&["8020"]]),
    ("417", &[&["7040"]]),
    ("8003", &[]),
    ("8004", &[&["7040"]]),
    ("8006", &[&["22", "10", "21"]]),
    ("8010", &[&["8011"]]),
    ("8013", &[]),
    ("8017", &[&["8019"]]),
    ("8018", &[&["8019"]]),
];

/// The AI `code` (2 to 4 digits), if GS1 defines it.
pub(super) fn find(code: &str) -> Option<&'static Ai> {
    AIS.iter()
        .find(|a| a.first.len() == code.len() && a.first <= code && code <= a.last)
}
