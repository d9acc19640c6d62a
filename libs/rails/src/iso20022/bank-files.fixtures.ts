/**
 * Files not produced by the writers: written by hand the way banks and other software send them (prefixes,
 * indentation, optional elements the readers skip). The tests check each against the XSD first so that it is real.
 */
export const PAIN002 = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<!-- status report from the bank's gateway -->
<ns2:Document xmlns:ns2="urn:iso:std:iso:20022:tech:xsd:pain.002.001.10"
              xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
  <ns2:CstmrPmtStsRpt>
    <ns2:GrpHdr>
      <ns2:MsgId>BANK-PSR-000981</ns2:MsgId>
      <ns2:CreDtTm>2026-11-28T10:15:02.123+01:00</ns2:CreDtTm>
      <ns2:InitgPty><ns2:Nm>Big Bank AG</ns2:Nm></ns2:InitgPty>
    </ns2:GrpHdr>
    <ns2:OrgnlGrpInfAndSts>
      <ns2:OrgnlMsgId>PO-20261128-0001</ns2:OrgnlMsgId>
      <ns2:OrgnlMsgNmId>pain.001.001.09</ns2:OrgnlMsgNmId>
      <ns2:OrgnlNbOfTxs>2</ns2:OrgnlNbOfTxs>
      <ns2:GrpSts>PART</ns2:GrpSts>
    </ns2:OrgnlGrpInfAndSts>
    <ns2:OrgnlPmtInfAndSts>
      <ns2:OrgnlPmtInfId>PI-EUR-1</ns2:OrgnlPmtInfId>
      <ns2:PmtInfSts>PART</ns2:PmtInfSts>
      <ns2:TxInfAndSts>
        <ns2:StsId>S-1</ns2:StsId>
        <ns2:OrgnlInstrId>E2E-EUR-1</ns2:OrgnlInstrId>
        <ns2:OrgnlEndToEndId>E2E-EUR-1</ns2:OrgnlEndToEndId>
        <ns2:TxSts>ACSC</ns2:TxSts>
        <ns2:AccptncDtTm>2026-11-28T10:15:00</ns2:AccptncDtTm>
      </ns2:TxInfAndSts>
      <ns2:TxInfAndSts>
        <ns2:OrgnlEndToEndId>E2E-EUR-2</ns2:OrgnlEndToEndId>
        <ns2:TxSts>RJCT</ns2:TxSts>
        <ns2:StsRsnInf>
          <ns2:Orgtr><ns2:Nm>Big Bank AG</ns2:Nm></ns2:Orgtr>
          <ns2:Rsn><ns2:Cd>AM04</ns2:Cd></ns2:Rsn>
          <ns2:AddtlInf>Insufficient funds &amp; no overdraft</ns2:AddtlInf>
        </ns2:StsRsnInf>
        <ns2:OrgnlTxRef>
          <ns2:Amt><ns2:InstdAmt Ccy="EUR">0.01</ns2:InstdAmt></ns2:Amt>
        </ns2:OrgnlTxRef>
      </ns2:TxInfAndSts>
    </ns2:OrgnlPmtInfAndSts>
  </ns2:CstmrPmtStsRpt>
</ns2:Document>
`;

export const CAMT054 = `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.054.001.08">
	<BkToCstmrDbtCdtNtfctn>
		<GrpHdr>
			<MsgId>20261128-NTF-77</MsgId>
			<CreDtTm>2026-11-28T16:00:00</CreDtTm>
			<MsgPgntn><PgNb>1</PgNb><LastPgInd>true</LastPgInd></MsgPgntn>
		</GrpHdr>
		<Ntfctn>
			<Id>NTF-77-1</Id>
			<CreDtTm>2026-11-28T16:00:00</CreDtTm>
			<Acct>
				<Id><IBAN>DE89370400440532013000</IBAN></Id>
				<Ccy>EUR</Ccy>
				<Ownr><Nm>Payments Platform GmbH</Nm></Ownr>
				<Svcr><FinInstnId><BICFI>COBADEFFXXX</BICFI></FinInstnId></Svcr>
			</Acct>
			<Ntry>
				<NtryRef>0001</NtryRef>
				<Amt Ccy="EUR">250.00</Amt>
				<CdtDbtInd>CRDT</CdtDbtInd>
				<RvslInd>false</RvslInd>
				<Sts><Cd>BOOK</Cd></Sts>
				<BookgDt><DtTm>2026-11-28T15:59:00</DtTm></BookgDt>
				<ValDt><Dt>2026-11-29</Dt></ValDt>
				<AcctSvcrRef>BANKREF-1</AcctSvcrRef>
				<BkTxCd>
					<Domn><Cd>PMNT</Cd><Fmly><Cd>ICDT</Cd><SubFmlyCd>RRTN</SubFmlyCd></Fmly></Domn>
					<Prtry><Cd>NRTI+159</Cd><Issr>DK</Issr></Prtry>
				</BkTxCd>
				<NtryDtls>
					<TxDtls>
						<Refs><MsgId>PO-20261128-0001</MsgId><EndToEndId>E2E-EUR-9</EndToEndId></Refs>
						<Amt Ccy="EUR">250.00</Amt>
						<CdtDbtInd>CRDT</CdtDbtInd>
						<RltdPties>
							<Dbtr><Pty><Nm>Jan de Vries</Nm></Pty></Dbtr>
							<DbtrAcct><Id><IBAN>NL91ABNA0417164300</IBAN></Id></DbtrAcct>
						</RltdPties>
						<RltdAgts><DbtrAgt><FinInstnId><BICFI>ABNANL2A</BICFI></FinInstnId></DbtrAgt></RltdAgts>
						<RmtInf><Ustrd>Invoice 2026-0042</Ustrd><Ustrd>second line</Ustrd></RmtInf>
						<RtrInf><Rsn><Cd>AC06</Cd></Rsn><AddtlInf>Account blocked</AddtlInf></RtrInf>
					</TxDtls>
				</NtryDtls>
				<AddtlNtryInf>RETURN</AddtlNtryInf>
			</Ntry>
			<Ntry>
				<Amt Ccy="EUR">10</Amt>
				<CdtDbtInd>DBIT</CdtDbtInd>
				<Sts><Cd>PDNG</Cd></Sts>
				<ValDt><Dt>2026-11-30</Dt></ValDt>
				<AcctSvcrRef>BANKREF-2</AcctSvcrRef>
				<BkTxCd/>
			</Ntry>
		</Ntfctn>
	</BkToCstmrDbtCdtNtfctn>
</Document>`;

export const CAMT053 = `<?xml version="1.0"?>
<s:Document xmlns:s="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08">
 <s:BkToCstmrStmt>
  <s:GrpHdr><s:MsgId>STMT-2026-11-28</s:MsgId><s:CreDtTm>2026-11-29T02:00:00Z</s:CreDtTm></s:GrpHdr>
  <s:Stmt>
   <s:Id>STMT-2026-11-28-1</s:Id>
   <s:ElctrncSeqNb>332</s:ElctrncSeqNb>
   <s:Acct>
    <s:Id><s:Othr><s:Id>000123456789</s:Id></s:Othr></s:Id>
    <s:Ccy>USD</s:Ccy>
    <s:Ownr><s:Nm>Payments Platform Inc</s:Nm></s:Ownr>
    <s:Svcr><s:FinInstnId><s:ClrSysMmbId><s:MmbId>021000021</s:MmbId></s:ClrSysMmbId></s:FinInstnId></s:Svcr>
   </s:Acct>
   <s:Bal>
    <s:Tp><s:CdOrPrtry><s:Cd>PRCD</s:Cd></s:CdOrPrtry></s:Tp>
    <s:Amt Ccy="USD">1000.00</s:Amt><s:CdtDbtInd>CRDT</s:CdtDbtInd>
    <s:Dt><s:Dt>2026-11-27</s:Dt></s:Dt>
   </s:Bal>
   <s:Bal>
    <s:Tp><s:CdOrPrtry><s:Cd>CLBD</s:Cd></s:CdOrPrtry></s:Tp>
    <s:Amt Ccy="USD">989.01</s:Amt><s:CdtDbtInd>CRDT</s:CdtDbtInd>
    <s:Dt><s:Dt>2026-11-28</s:Dt></s:Dt>
   </s:Bal>
   <s:Ntry>
    <s:NtryRef>A1</s:NtryRef><s:Amt Ccy="USD">10.99</s:Amt><s:CdtDbtInd>DBIT</s:CdtDbtInd>
    <s:Sts><s:Cd>BOOK</s:Cd></s:Sts><s:BookgDt><s:Dt>2026-11-28</s:Dt></s:BookgDt>
    <s:BkTxCd><s:Domn><s:Cd>PMNT</s:Cd>
      <s:Fmly><s:Cd>ICDT</s:Cd><s:SubFmlyCd>DMCT</s:SubFmlyCd></s:Fmly></s:Domn></s:BkTxCd>
    <s:NtryDtls><s:TxDtls>
     <s:Refs><s:EndToEndId>E2E-USD-1</s:EndToEndId></s:Refs>
     <s:RltdPties>
      <s:Cdtr><s:Pty><s:Nm>Jane Q. Payee</s:Nm></s:Pty></s:Cdtr>
      <s:CdtrAcct><s:Id><s:Othr><s:Id>987654321</s:Id></s:Othr></s:Id></s:CdtrAcct>
     </s:RltdPties>
    </s:TxDtls></s:NtryDtls>
   </s:Ntry>
  </s:Stmt>
 </s:BkToCstmrStmt>
</s:Document>`;

export const PAIN001 = `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pain.001.001.09" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
  <CstmrCdtTrfInitn>
    <GrpHdr>
      <MsgId>ERP-000042</MsgId><CreDtTm>2026-11-28T08:00:00</CreDtTm><NbOfTxs>1</NbOfTxs>
      <InitgPty><Nm>Other ERP</Nm><Id><OrgId><Othr><Id>12345</Id></Othr></OrgId></Id></InitgPty>
    </GrpHdr>
    <PmtInf>
      <PmtInfId>B1</PmtInfId><PmtMtd>TRF</PmtMtd><BtchBookg>false</BtchBookg>
      <PmtTpInf><SvcLvl><Cd>SEPA</Cd></SvcLvl></PmtTpInf>
      <ReqdExctnDt><DtTm>2026-11-30T09:00:00</DtTm></ReqdExctnDt>
      <Dbtr><Nm>Payments Platform GmbH</Nm><PstlAdr><Ctry>DE</Ctry></PstlAdr></Dbtr>
      <DbtrAcct><Id><IBAN>DE89370400440532013000</IBAN></Id><Ccy>EUR</Ccy></DbtrAcct>
      <DbtrAgt><FinInstnId><Othr><Id>NOTPROVIDED</Id></Othr></FinInstnId></DbtrAgt>
      <ChrgBr>SLEV</ChrgBr>
      <CdtTrfTxInf>
        <PmtId><InstrId>I-1</InstrId><EndToEndId>E-1</EndToEndId></PmtId>
        <Amt><InstdAmt Ccy="EUR">99.9</InstdAmt></Amt>
        <Cdtr><Nm>Jan de Vries</Nm></Cdtr>
        <CdtrAcct><Id><IBAN>NL91ABNA0417164300</IBAN></Id></CdtrAcct>
        <Purp><Cd>SUPP</Cd></Purp>
      </CdtTrfTxInf>
    </PmtInf>
  </CstmrCdtTrfInitn>
</Document>`;

export const PAIN008 = `<?xml version="1.0" encoding="UTF-8"?>
<p:Document xmlns:p="urn:iso:std:iso:20022:tech:xsd:pain.008.001.08">
  <p:CstmrDrctDbtInitn>
    <p:GrpHdr><p:MsgId>DD-7</p:MsgId><p:CreDtTm>2026-11-28T08:00:00</p:CreDtTm>
      <p:NbOfTxs>1</p:NbOfTxs><p:CtrlSum>5.5</p:CtrlSum><p:InitgPty><p:Nm>X</p:Nm></p:InitgPty></p:GrpHdr>
    <p:PmtInf>
      <p:PmtInfId>P1</p:PmtInfId><p:PmtMtd>DD</p:PmtMtd>
      <p:PmtTpInf><p:SvcLvl><p:Cd>SEPA</p:Cd></p:SvcLvl>
        <p:LclInstrm><p:Cd>CORE</p:Cd></p:LclInstrm><p:SeqTp>RCUR</p:SeqTp></p:PmtTpInf>
      <p:ReqdColltnDt>2026-12-01</p:ReqdColltnDt>
      <p:Cdtr><p:Nm>Payments Platform GmbH</p:Nm></p:Cdtr>
      <p:CdtrAcct><p:Id><p:IBAN>DE89370400440532013000</p:IBAN></p:Id></p:CdtrAcct>
      <p:CdtrAgt><p:FinInstnId><p:BICFI>COBADEFFXXX</p:BICFI></p:FinInstnId></p:CdtrAgt>
      <p:DrctDbtTxInf>
        <p:PmtId><p:EndToEndId>C-1</p:EndToEndId></p:PmtId>
        <p:InstdAmt Ccy="EUR">5.50</p:InstdAmt>
        <p:DrctDbtTx>
          <p:MndtRltdInf><p:MndtId>M-1</p:MndtId><p:DtOfSgntr>2026-01-01</p:DtOfSgntr></p:MndtRltdInf>
        </p:DrctDbtTx>
        <p:DbtrAgt><p:FinInstnId><p:Othr><p:Id>NOTPROVIDED</p:Id></p:Othr></p:FinInstnId></p:DbtrAgt>
        <p:Dbtr><p:Nm>Jan de Vries</p:Nm></p:Dbtr>
        <p:DbtrAcct><p:Id><p:IBAN>NL91ABNA0417164300</p:IBAN></p:Id></p:DbtrAcct>
        <p:RmtInf><p:Ustrd>Membership</p:Ustrd></p:RmtInf>
      </p:DrctDbtTxInf>
    </p:PmtInf>
  </p:CstmrDrctDbtInitn>
</p:Document>`;
